//! OAUTHBEARER's decoders as a listener runs them on a client's first SaslAuthenticate: the
//! initial response (RFC 7628 in Kafka's grammar), then its token through Kafka's unsecured
//! validator (base64url, JSON, the claim checks). Any input is refused or accepted, never a
//! panic.
#![no_main]
use fjord_net::sasl::oauthbearer::{parse_initial, TokenValidator, UnsecuredValidator};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let validator = UnsecuredValidator::from_options(&Default::default()).expect("defaults");
    if let Ok(initial) = parse_initial(data) {
        let _ = validator.validate(&initial.token, 1_800_000_000_000);
    }
    // The token alone, as if it had come in a well-formed message.
    if let Ok(token) = std::str::from_utf8(data) {
        let _ = validator.validate(token, 1_800_000_000_000);
        let _ = fjord_net::sasl::oauthbearer::signed_header(token);
    }
});
