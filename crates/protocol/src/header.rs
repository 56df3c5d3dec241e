//! Request and response headers.
