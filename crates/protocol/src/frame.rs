//! Frames: the int32 length prefix around every request and response.
