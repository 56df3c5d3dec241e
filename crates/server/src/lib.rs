//! fjord-server as a library: what the `fjord` binary shares with its tests (the command
//! line). The node itself is composed in the binary (`src/main.rs` and its modules).

pub mod cli;
