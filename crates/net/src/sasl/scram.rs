//! SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677) as Kafka speaks them: credentials
//! derived from a password (salt, iterations, stored key, server key: what Kafka keeps in a
//! `UserScramCredentialRecord`), and the server side of the exchange: client-first,
//! server-first, client-final, server-final. The proof is checked in constant time; a wrong
//! password and an unknown user fail alike.

use super::SaslError;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256, Sha512};

/// Kafka's lowest and highest accepted iteration counts.
pub const MIN_ITERATIONS: u32 = 4096;
/// Kafka's highest accepted iteration count.
pub const MAX_ITERATIONS: u32 = 16384;
/// The longest client message accepted (a name, a nonce and a proof fit many times over).
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// A SCRAM mechanism.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mechanism {
    /// SCRAM-SHA-256.
    Sha256,
    /// SCRAM-SHA-512.
    Sha512,
}

impl Mechanism {
    /// Its SASL name.
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::Sha256 => "SCRAM-SHA-256",
            Mechanism::Sha512 => "SCRAM-SHA-512",
        }
    }

    /// The mechanism a SASL name stands for.
    pub fn from_name(name: &str) -> Option<Mechanism> {
        match name {
            "SCRAM-SHA-256" => Some(Mechanism::Sha256),
            "SCRAM-SHA-512" => Some(Mechanism::Sha512),
            _ => None,
        }
    }

    /// The mechanism of Kafka's `ScramMechanism` type code.
    pub fn from_code(code: i8) -> Option<Mechanism> {
        match code {
            1 => Some(Mechanism::Sha256),
            2 => Some(Mechanism::Sha512),
            _ => None,
        }
    }

    /// Kafka's `ScramMechanism` type code (UserScramCredentialRecord, the SCRAM admin APIs).
    pub fn code(self) -> i8 {
        match self {
            Mechanism::Sha256 => 1,
            Mechanism::Sha512 => 2,
        }
    }

    fn hmac(self, key: &[u8], data: &[u8]) -> Vec<u8> {
        match self {
            Mechanism::Sha256 => {
                let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key");
                m.update(data);
                m.finalize().into_bytes().to_vec()
            }
            Mechanism::Sha512 => {
                let mut m = Hmac::<Sha512>::new_from_slice(key).expect("HMAC takes any key");
                m.update(data);
                m.finalize().into_bytes().to_vec()
            }
        }
    }

    fn hash(self, data: &[u8]) -> Vec<u8> {
        match self {
            Mechanism::Sha256 => Sha256::digest(data).to_vec(),
            Mechanism::Sha512 => Sha512::digest(data).to_vec(),
        }
    }

    /// PBKDF2 of `password` (SaltedPassword in RFC 5802).
    pub fn salted_password(self, password: &[u8], salt: &[u8], iterations: u32) -> Vec<u8> {
        match self {
            Mechanism::Sha256 => {
                let mut out = vec![0u8; 32];
                pbkdf2::pbkdf2_hmac::<Sha256>(password, salt, iterations, &mut out);
                out
            }
            Mechanism::Sha512 => {
                let mut out = vec![0u8; 64];
                pbkdf2::pbkdf2_hmac::<Sha512>(password, salt, iterations, &mut out);
                out
            }
        }
    }
}

/// What the server keeps of a user's password for one mechanism.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential {
    /// The salt.
    pub salt: Vec<u8>,
    /// H(HMAC(SaltedPassword, "Client Key")).
    pub stored_key: Vec<u8>,
    /// HMAC(SaltedPassword, "Server Key").
    pub server_key: Vec<u8>,
    /// The PBKDF2 iteration count.
    pub iterations: u32,
}

impl Credential {
    /// The credential of `password` with `salt` and `iterations`.
    pub fn derive(m: Mechanism, password: &str, salt: &[u8], iterations: u32) -> Credential {
        let salted = m.salted_password(password.as_bytes(), salt, iterations);
        Credential::from_salted_password(m, &salted, salt, iterations)
    }

    /// The credential of an already salted password (what AlterUserScramCredentials carries:
    /// the client salts, so the password never reaches the server).
    pub fn from_salted_password(
        m: Mechanism,
        salted: &[u8],
        salt: &[u8],
        iterations: u32,
    ) -> Credential {
        let client_key = m.hmac(salted, b"Client Key");
        Credential {
            salt: salt.to_vec(),
            stored_key: m.hash(&client_key),
            server_key: m.hmac(salted, b"Server Key"),
            iterations,
        }
    }
}

/// Where the server's side of one exchange stands.
#[derive(Debug, Clone)]
enum State {
    /// Waiting for client-first.
    Start,
    /// Server-first sent; waiting for client-final.
    Challenged {
        user: String,
        nonce: String,
        client_first_bare: String,
        server_first: String,
        credential: Option<Credential>,
    },
    /// Done (either way).
    Done,
}

/// The server side of a SCRAM exchange.
#[derive(Debug, Clone)]
pub struct ScramServer {
    mechanism: Mechanism,
    state: State,
    token: bool,
}

/// The SCRAM extension that says the user name is a delegation token's id (KIP-48).
pub const TOKEN_AUTH: &str = "tokenauth";

/// A step's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Send this challenge and wait for the next message.
    Challenge(Vec<u8>),
    /// Authenticated as this user; send this final message.
    Authenticated {
        /// The user name (`User:<name>` is the principal).
        user: String,
        /// server-final-message.
        response: Vec<u8>,
    },
}

/// RFC 5802's saslname: `=2C` is `,` and `=3D` is `=`.
fn decode_name(s: &str) -> Result<String, SaslError> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('=') {
        out.push_str(&rest[..i]);
        match rest.get(i..i + 3) {
            Some("=2C") => out.push(','),
            Some("=3D") => out.push('='),
            _ => return Err(SaslError::Malformed("bad escape in the user name".into())),
        }
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    Ok(out)
}

fn attribute(part: Option<&str>, key: char) -> Result<&str, SaslError> {
    part.and_then(|p| p.strip_prefix(key))
        .and_then(|p| p.strip_prefix('='))
        .ok_or_else(|| SaslError::Malformed(format!("expected attribute {key}")))
}

/// Constant-time equality.
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl ScramServer {
    /// A new exchange for `mechanism`.
    pub fn new(mechanism: Mechanism) -> ScramServer {
        ScramServer {
            mechanism,
            state: State::Start,
            token: false,
        }
    }

    /// True when the client asked to authenticate with a delegation token.
    pub fn token_auth(&self) -> bool {
        self.token
    }

    /// Takes the next client message. `lookup` finds a user's credential, or with `true` a
    /// delegation token's (`None`: unknown, which fails at the proof like a wrong password); `server_nonce` is appended to
    /// the client's nonce (printable, no commas).
    pub fn step(
        &mut self,
        message: &[u8],
        lookup: impl FnOnce(&str, bool) -> Option<Credential>,
        server_nonce: &str,
    ) -> Result<Step, SaslError> {
        if message.len() > MAX_MESSAGE_BYTES {
            self.state = State::Done;
            return Err(SaslError::Malformed("message too long".into()));
        }
        let text =
            std::str::from_utf8(message).map_err(|_| SaslError::Malformed("not UTF-8".into()))?;
        match std::mem::replace(&mut self.state, State::Done) {
            State::Start => self.client_first(text, lookup, server_nonce),
            State::Challenged {
                user,
                nonce,
                client_first_bare,
                server_first,
                credential,
            } => self.client_final(
                text,
                user,
                nonce,
                client_first_bare,
                server_first,
                credential,
            ),
            State::Done => Err(SaslError::OutOfTurn("done")),
        }
    }

    fn client_first(
        &mut self,
        text: &str,
        lookup: impl FnOnce(&str, bool) -> Option<Credential>,
        server_nonce: &str,
    ) -> Result<Step, SaslError> {
        // gs2-header: "n,," or "y,," (no channel binding), optionally "n,a=authzid,".
        let (cbind, rest) = text
            .split_once(',')
            .ok_or_else(|| SaslError::Malformed("no GS2 header".into()))?;
        if cbind != "n" && cbind != "y" {
            return Err(SaslError::Malformed(
                "channel binding is not supported".into(),
            ));
        }
        let (_authzid, bare) = rest
            .split_once(',')
            .ok_or_else(|| SaslError::Malformed("no GS2 header".into()))?;
        let mut parts = bare.split(',');
        let user = decode_name(attribute(parts.next(), 'n')?)?;
        let client_nonce = attribute(parts.next(), 'r')?;
        if user.is_empty() || client_nonce.is_empty() {
            return Err(SaslError::Malformed("empty user or nonce".into()));
        }
        // Kafka's SCRAM extensions follow the nonce as key=value pairs; `tokenauth=true`
        // names a delegation token instead of a user.
        let token = parts.any(|p| {
            p.split_once('=')
                .is_some_and(|(k, v)| k == TOKEN_AUTH && v.eq_ignore_ascii_case("true"))
        });
        self.token = token;
        let credential = lookup(&user, token);
        // An unknown user gets a plausible challenge and fails at the proof.
        let (salt, iterations) = match &credential {
            Some(c) => (c.salt.clone(), c.iterations),
            None => (
                self.mechanism.hash(user.as_bytes())[..16].to_vec(),
                MIN_ITERATIONS,
            ),
        };
        let nonce = format!("{client_nonce}{server_nonce}");
        let server_first = format!("r={nonce},s={},i={iterations}", B64.encode(&salt));
        self.state = State::Challenged {
            user,
            nonce,
            client_first_bare: bare.to_string(),
            server_first: server_first.clone(),
            credential,
        };
        Ok(Step::Challenge(server_first.into_bytes()))
    }

    fn client_final(
        &mut self,
        text: &str,
        user: String,
        nonce: String,
        client_first_bare: String,
        server_first: String,
        credential: Option<Credential>,
    ) -> Result<Step, SaslError> {
        let (without_proof, proof) = text
            .rsplit_once(",p=")
            .ok_or_else(|| SaslError::Malformed("no proof".into()))?;
        let mut parts = without_proof.split(',');
        let _channel_binding = attribute(parts.next(), 'c')?;
        if attribute(parts.next(), 'r')? != nonce {
            return Err(SaslError::InvalidCredentials(self.mechanism.name()));
        }
        let proof = B64
            .decode(proof)
            .map_err(|_| SaslError::Malformed("the proof is not base64".into()))?;
        let Some(c) = credential else {
            return Err(SaslError::InvalidCredentials(self.mechanism.name()));
        };
        let auth_message = format!("{client_first_bare},{server_first},{without_proof}");
        let m = self.mechanism;
        let client_signature = m.hmac(&c.stored_key, auth_message.as_bytes());
        if proof.len() != client_signature.len() {
            return Err(SaslError::InvalidCredentials(m.name()));
        }
        let client_key: Vec<u8> = proof
            .iter()
            .zip(&client_signature)
            .map(|(a, b)| a ^ b)
            .collect();
        if !same(&m.hash(&client_key), &c.stored_key) {
            return Err(SaslError::InvalidCredentials(m.name()));
        }
        let server_signature = m.hmac(&c.server_key, auth_message.as_bytes());
        Ok(Step::Authenticated {
            user,
            response: format!("v={}", B64.encode(server_signature)).into_bytes(),
        })
    }
}

/// The client side of a SCRAM exchange: client-first, then client-final from the server's
/// challenge, then a check of the server's signature.
#[derive(Debug, Clone)]
pub struct ScramClient {
    mechanism: Mechanism,
    user: String,
    password: String,
    client_nonce: String,
    /// client-first-message-bare, and once challenged the auth message and salted password.
    first_bare: String,
    expected_server_signature: Option<Vec<u8>>,
}

/// RFC 5802's saslname encoding of a user name.
fn encode_name(name: &str) -> String {
    name.replace('=', "=3D").replace(',', "=2C")
}

impl ScramClient {
    /// A new exchange for `user` with `password`; `nonce` is the client's random nonce
    /// (printable, no commas).
    pub fn new(mechanism: Mechanism, user: &str, password: &str, nonce: &str) -> ScramClient {
        ScramClient {
            mechanism,
            user: user.into(),
            password: password.into(),
            client_nonce: nonce.into(),
            first_bare: format!("n={},r={nonce}", encode_name(user)),
            expected_server_signature: None,
        }
    }

    /// The same exchange authenticating with a delegation token: `user` is the token's id
    /// and the password its HMAC in base64; the client-first message carries
    /// `tokenauth=true`.
    pub fn for_token(mut self) -> ScramClient {
        self.first_bare.push_str(&format!(",{TOKEN_AUTH}=true"));
        self
    }

    /// The user name.
    pub fn user(&self) -> &str {
        &self.user
    }

    /// client-first-message.
    pub fn first(&self) -> Vec<u8> {
        format!("n,,{}", self.first_bare).into_bytes()
    }

    /// client-final-message, from the server's challenge.
    pub fn last(&mut self, server_first: &[u8]) -> Result<Vec<u8>, SaslError> {
        let text = std::str::from_utf8(server_first)
            .map_err(|_| SaslError::Malformed("not UTF-8".into()))?;
        let mut fields = text.split(',');
        let nonce = attribute(fields.next(), 'r')?;
        if !nonce.starts_with(&self.client_nonce) || nonce.len() == self.client_nonce.len() {
            return Err(SaslError::Malformed(
                "the server's nonce does not extend the client's".into(),
            ));
        }
        let salt = B64
            .decode(attribute(fields.next(), 's')?)
            .map_err(|_| SaslError::Malformed("the salt is not base64".into()))?;
        let iterations: u32 = attribute(fields.next(), 'i')?
            .parse()
            .map_err(|_| SaslError::Malformed("bad iteration count".into()))?;
        if !(MIN_ITERATIONS..=MAX_ITERATIONS).contains(&iterations) {
            return Err(SaslError::Malformed(format!(
                "iteration count {iterations} outside {MIN_ITERATIONS}..={MAX_ITERATIONS}"
            )));
        }
        let m = self.mechanism;
        let salted = m.salted_password(self.password.as_bytes(), &salt, iterations);
        let client_key = m.hmac(&salted, b"Client Key");
        let stored_key = m.hash(&client_key);
        let without_proof = format!("c=biws,r={nonce}");
        let auth_message = format!("{},{text},{without_proof}", self.first_bare);
        let signature = m.hmac(&stored_key, auth_message.as_bytes());
        let proof: Vec<u8> = client_key
            .iter()
            .zip(&signature)
            .map(|(a, b)| a ^ b)
            .collect();
        let server_key = m.hmac(&salted, b"Server Key");
        self.expected_server_signature = Some(m.hmac(&server_key, auth_message.as_bytes()));
        Ok(format!("{without_proof},p={}", B64.encode(proof)).into_bytes())
    }

    /// Checks server-final-message: the server proved it knows the credential.
    pub fn verify(&self, server_final: &[u8]) -> Result<(), SaslError> {
        let text = std::str::from_utf8(server_final)
            .map_err(|_| SaslError::Malformed("not UTF-8".into()))?;
        if let Some(e) = text.strip_prefix("e=") {
            return Err(SaslError::Malformed(format!("the server refused: {e}")));
        }
        let v = B64
            .decode(attribute(Some(text), 'v')?)
            .map_err(|_| SaslError::Malformed("the signature is not base64".into()))?;
        match &self.expected_server_signature {
            Some(expected) if same(expected, &v) => Ok(()),
            Some(_) => Err(SaslError::Malformed(
                "the server's signature is wrong".into(),
            )),
            None => Err(SaslError::OutOfTurn("not challenged")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7677's example: user "user", password "pencil".
    #[test]
    fn rfc7677_sha256_exchange() {
        let salt = B64.decode("W22ZaJ0SNY7soEsUEjb6gQ==").unwrap();
        let cred = Credential::derive(Mechanism::Sha256, "pencil", &salt, 4096);
        let mut s = ScramServer::new(Mechanism::Sha256);
        let first = s
            .step(
                b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO",
                |u, _| (u == "user").then(|| cred.clone()),
                "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0",
            )
            .unwrap();
        assert_eq!(
            first,
            Step::Challenge(
                b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
                    .to_vec()
            )
        );
        let last = s
            .step(
                b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
                |_, _| None,
                "",
            )
            .unwrap();
        assert_eq!(
            last,
            Step::Authenticated {
                user: "user".into(),
                response: b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=".to_vec()
            }
        );
        assert_eq!(
            s.step(b"again", |_, _| None, ""),
            Err(SaslError::OutOfTurn("done"))
        );
    }

    fn exchange(
        m: Mechanism,
        stored_password: Option<&str>,
        password: &str,
    ) -> Result<Step, SaslError> {
        let cred = stored_password.map(|p| Credential::derive(m, p, b"0123456789abcdef", 4096));
        let mut s = ScramServer::new(m);
        let mut c = ScramClient::new(m, "alice", password, "abc");
        let Step::Challenge(sf) = s.step(&c.first(), |_, _| cred.clone(), "XYZ")? else {
            panic!("a challenge first")
        };
        let last = c.last(&sf).expect("a valid challenge");
        let step = s.step(&last, |_, _| None, "")?;
        if let Step::Authenticated { response, .. } = &step {
            c.verify(response).expect("the server's signature checks");
            assert!(c.verify(b"v=AAAA").is_err(), "a wrong server signature");
        }
        Ok(step)
    }

    #[test]
    fn both_mechanisms_accept_the_password_and_nothing_else() {
        for m in [Mechanism::Sha256, Mechanism::Sha512] {
            assert!(matches!(
                exchange(m, Some("s3cret"), "s3cret"),
                Ok(Step::Authenticated { .. })
            ));
            assert_eq!(
                exchange(m, Some("s3cret"), "guess"),
                Err(SaslError::InvalidCredentials(m.name()))
            );
            // An unknown user fails the same way, at the proof.
            assert_eq!(
                exchange(m, None, "anything"),
                Err(SaslError::InvalidCredentials(m.name()))
            );
        }
    }

    #[test]
    fn bad_messages_are_refused() {
        let mut s = ScramServer::new(Mechanism::Sha256);
        assert!(s.step(b"p=tls-unique,,n=a,r=b", |_, _| None, "x").is_err());
        let mut s = ScramServer::new(Mechanism::Sha256);
        assert!(s.step(b"n,,r=b", |_, _| None, "x").is_err());
        let mut s = ScramServer::new(Mechanism::Sha256);
        assert!(s
            .step(&vec![b'a'; MAX_MESSAGE_BYTES + 1], |_, _| None, "x")
            .is_err());
        // A wrong nonce in client-final.
        let cred = Credential::derive(Mechanism::Sha256, "pw", b"salt", 4096);
        let mut s = ScramServer::new(Mechanism::Sha256);
        s.step(b"n,,n=a,r=b", |_, _| Some(cred), "x").unwrap();
        assert_eq!(
            s.step(b"c=biws,r=other,p=AAAA", |_, _| None, ""),
            Err(SaslError::InvalidCredentials("SCRAM-SHA-256"))
        );
        assert_eq!(decode_name("a=2Cb=3Dc").unwrap(), "a,b=c");
        assert!(decode_name("a=2").is_err());
    }
}
