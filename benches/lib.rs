//! Benchmarks live in the `[[bench]]` targets of this package; this library is empty.
