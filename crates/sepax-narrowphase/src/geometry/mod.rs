//! Closest-point building blocks shared by the pair tests (and by distances later).
