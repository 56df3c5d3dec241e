//! GSSAPI's decoders as a listener runs them: the RFC 4752 exchange over a modelled security
//! context (the client's messages in any order and form, the wrapped choice of security
//! layer decoded), then the principal-to-local rules and the Kerberos name they map. Any
//! input is refused or accepted, never a panic.
#![no_main]
use fjord_kerberos::{KerberosName, ShortNamer};
use fjord_net::sasl::gssapi::{model::Model, GssapiServer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks mutual authentication; then messages, each after a length byte.
    let mutual = data.first().is_some_and(|b| b & 1 == 1);
    let mut server = GssapiServer::new(Model::acceptor(mutual, "alice@FJORD.TEST"));
    let mut rest = data.get(1..).unwrap_or_default();
    while let Some((&len, tail)) = rest.split_first() {
        let (message, after) = tail.split_at(usize::from(len).min(tail.len()));
        rest = after;
        if server.step(message).is_err() {
            break;
        }
    }
    // As text: the rules, a line each, and last the principal's name.
    if let Ok(text) = std::str::from_utf8(data) {
        let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        let name = lines.pop().unwrap_or_default();
        if let (Ok(namer), Ok(name)) = (ShortNamer::parse("FJORD.TEST", &lines), KerberosName::parse(&name)) {
            let _ = namer.short_name(&name);
        }
    }
});
