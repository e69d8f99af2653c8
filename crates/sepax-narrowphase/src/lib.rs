//! narrowphase
