//! Exact reference predicates (dev-only). See the module docs.
