//! Record batches v2.
