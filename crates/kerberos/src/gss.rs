//! GSSAPI security contexts over the system's MIT Kerberos library (through the `libgssapi`
//! binding): a listener's acceptor with the service key from its keytab, and a node's
//! initiator that gets its tickets from a client keytab (or a ticket cache) by itself and
//! renews them as they expire, as MIT's library does for a `client_keytab` credential store.

use crate::name::KerberosName;
use crate::rules::ShortNamer;
use fjord_net::sasl::gssapi::{GssAcceptor, GssContext, GssFailure, GssInitiator};
use libgssapi::context::{ClientCtx, CtxFlags, SecurityContext, ServerCtx};
use libgssapi::credential::{Cred, CredUsage};
use libgssapi::error::{Error, MajorFlags};
use libgssapi::name::Name;
use libgssapi::oid::{GSS_MECH_KRB5, GSS_NT_HOSTBASED_SERVICE};
use libgssapi::util::Buf;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A GSSAPI library error as a step's failure.
fn failure(what: &str, e: Error) -> GssFailure {
    GssFailure::new(format!("{what}: {e}"))
}

/// Where a credential's keys come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// A keytab file (`useKeyTab=true keyTab="..."`).
    Keytab(PathBuf),
    /// A ticket cache (`useTicketCache=true`; `None`: the library's default, `KRB5CCNAME`).
    TicketCache(Option<String>),
}

/// A Kerberos login as the JAAS options of Java's `Krb5LoginModule` describe it: a keytab
/// (`useKeyTab=true keyTab="..." principal="..."`) or a ticket cache (`useTicketCache=true`,
/// `ticketCache="..."`). fjord never prompts for a password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    principal: Option<String>,
    keys: KeySource,
}

impl Login {
    /// The login the options describe.
    pub fn from_options(options: &BTreeMap<String, String>) -> Result<Login, String> {
        let yes = |k: &str| {
            options
                .get(k)
                .is_some_and(|v| v.eq_ignore_ascii_case("true"))
        };
        let principal = options.get("principal").filter(|p| !p.is_empty()).cloned();
        if yes("useKeyTab") {
            let keytab = options
                .get("keyTab")
                .filter(|k| !k.is_empty())
                .ok_or("useKeyTab=true needs keyTab=\"<path>\"")?;
            let principal = principal.ok_or("useKeyTab=true needs principal=\"<name>@<REALM>\"")?;
            return Ok(Login {
                principal: Some(principal),
                keys: KeySource::Keytab(PathBuf::from(keytab)),
            });
        }
        if yes("useTicketCache") {
            return Ok(Login {
                principal,
                keys: KeySource::TicketCache(options.get("ticketCache").cloned()),
            });
        }
        Err("Krb5LoginModule needs useKeyTab=true (with keyTab and principal) or useTicketCache=true: fjord never prompts for a password".into())
    }

    /// The acceptor a listener uses, which needs the keytab of a service principal.
    pub fn acceptor(&self, namer: ShortNamer) -> Result<KeytabAcceptor, String> {
        match (&self.keys, &self.principal) {
            (KeySource::Keytab(keytab), Some(principal)) => {
                KeytabAcceptor::new(principal, keytab.clone(), namer)
            }
            _ => Err("a listener accepts logins with its service key: useKeyTab=true, keyTab and principal".into()),
        }
    }

    /// The initiator this login signs in to `service` with.
    pub fn initiator(&self, service: &str) -> KeytabInitiator {
        KeytabInitiator::new(self.principal.as_deref(), self.keys.clone(), service)
    }
}

/// A listener's acceptor: the service principal's key from a keytab, and the rules that map
/// a client's principal to its short name.
#[derive(Debug)]
pub struct KeytabAcceptor {
    principal: String,
    keytab: PathBuf,
    namer: ShortNamer,
}

impl KeytabAcceptor {
    /// An acceptor for `principal` (for example `kafka/broker1.example.com@EXAMPLE.COM`)
    /// with its key in `keytab`. Fails as the node starts when the keytab cannot give that
    /// principal's credential.
    pub fn new(principal: &str, keytab: PathBuf, namer: ShortNamer) -> Result<Self, String> {
        let acceptor = KeytabAcceptor {
            principal: principal.to_string(),
            keytab,
            namer,
        };
        let cred = acceptor
            .credential()
            .map_err(|e| format!("the keytab gives no credential for {principal}: {e}"))?;
        drop(cred);
        Ok(acceptor)
    }

    /// The acceptor credential (the keytab is read again each time, so a replaced keytab is
    /// used from the next login on).
    fn credential(&self) -> Result<Cred, GssFailure> {
        let keytab = self.keytab.to_string_lossy();
        ffi::acquire_from(
            Some(&self.principal),
            CredUsage::Accept,
            &[("keytab", &keytab)],
        )
    }
}

impl GssAcceptor for KeytabAcceptor {
    fn context(&self) -> Result<Box<dyn GssContext>, GssFailure> {
        Ok(Box::new(Context(ServerCtx::new(Some(self.credential()?)))))
    }

    fn short_name(&self, principal: &str) -> Result<String, String> {
        let name = KerberosName::parse(principal).map_err(|e| e.to_string())?;
        self.namer.short_name(&name).map_err(|e| e.to_string())
    }
}

/// A node's (or a tool's) initiator: its principal's tickets, for `service` on each host.
#[derive(Debug)]
pub struct KeytabInitiator {
    principal: Option<String>,
    keys: KeySource,
    service: String,
    /// The in-memory ticket cache a keytab's tickets are kept in (one per initiator).
    ccache: String,
}

impl KeytabInitiator {
    /// An initiator for `principal` with its keys from `keys`, signing in to `service`
    /// (`sasl.kerberos.service.name`).
    pub fn new(principal: Option<&str>, keys: KeySource, service: &str) -> KeytabInitiator {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        KeytabInitiator {
            principal: principal.map(str::to_string),
            keys,
            service: service.to_string(),
            ccache: format!("MEMORY:fjord-{}-{n}", std::process::id()),
        }
    }

    fn credential(&self) -> Result<Cred, GssFailure> {
        match &self.keys {
            KeySource::Keytab(keytab) => {
                let keytab = keytab.to_string_lossy();
                ffi::acquire_from(
                    self.principal.as_deref(),
                    CredUsage::Initiate,
                    &[("client_keytab", &keytab), ("ccache", &self.ccache)],
                )
            }
            KeySource::TicketCache(Some(cache)) => ffi::acquire_from(
                self.principal.as_deref(),
                CredUsage::Initiate,
                &[("ccache", cache)],
            ),
            KeySource::TicketCache(None) => {
                ffi::acquire_from(self.principal.as_deref(), CredUsage::Initiate, &[])
            }
        }
    }
}

impl GssInitiator for KeytabInitiator {
    fn context(&self, host: &str) -> Result<Box<dyn GssContext>, GssFailure> {
        let target = Name::new(
            format!("{}@{host}", self.service).as_bytes(),
            Some(GSS_NT_HOSTBASED_SERVICE),
        )
        .map_err(|e| failure("the service name", e))?;
        let flags = CtxFlags::GSS_C_MUTUAL_FLAG | CtxFlags::GSS_C_INTEG_FLAG;
        Ok(Box::new(Context(ClientCtx::new(
            Some(self.credential()?),
            target,
            flags,
            Some(GSS_MECH_KRB5),
        ))))
    }
}

/// One side of the binding's contexts: how a step and the peer's name are taken.
trait Side: SecurityContext + Send + std::fmt::Debug {
    /// What a failed step was doing.
    const STEP: &'static str;
    fn advance(&mut self, token: &[u8]) -> Result<Option<Buf>, Error>;
    fn peer_name(&self) -> Result<Name, Error>;
}

impl Side for ServerCtx {
    const STEP: &'static str = "accepting the security context";
    fn advance(&mut self, token: &[u8]) -> Result<Option<Buf>, Error> {
        self.step(token, None)
    }
    fn peer_name(&self) -> Result<Name, Error> {
        self.source_name()
    }
}

impl Side for ClientCtx {
    const STEP: &'static str = "initiating the security context";
    fn advance(&mut self, token: &[u8]) -> Result<Option<Buf>, Error> {
        self.step((!token.is_empty()).then_some(token), None)
    }
    fn peer_name(&self) -> Result<Name, Error> {
        self.target_name()
    }
}

/// A context of either side (the peer of an acceptor is the client, of an initiator the
/// service).
#[derive(Debug)]
struct Context<C>(C);

impl<C: Side> GssContext for Context<C> {
    fn step(&mut self, token: &[u8]) -> Result<Vec<u8>, GssFailure> {
        match self.0.advance(token) {
            Ok(out) => Ok(out.map(|b| b.to_vec()).unwrap_or_default()),
            Err(e) => Err(failure(C::STEP, e)),
        }
    }
    fn is_complete(&self) -> bool {
        self.0.is_complete()
    }
    fn wrap(&mut self, message: &[u8]) -> Result<Vec<u8>, GssFailure> {
        Ok(self
            .0
            .wrap(false, message)
            .map_err(|e| failure("wrap", e))?
            .to_vec())
    }
    fn unwrap(&mut self, message: &[u8]) -> Result<Vec<u8>, GssFailure> {
        Ok(self
            .0
            .unwrap(message)
            .map_err(|e| failure("unwrap", e))?
            .to_vec())
    }
    fn peer(&mut self) -> Result<String, GssFailure> {
        let name = self
            .0
            .peer_name()
            .map_err(|e| failure("the peer's name", e))?;
        Ok(name.to_string())
    }
}

/// The one call the binding leaves out.
#[allow(unsafe_code)]
mod ffi {
    use super::{failure, Cred, CredUsage, Error, GssFailure, MajorFlags};
    use libgssapi_sys::{
        gss_acquire_cred_from, gss_buffer_desc, gss_cred_id_t, gss_import_name,
        gss_key_value_element_desc, gss_key_value_set_desc, gss_name_t, gss_release_name,
        OM_uint32, _GSS_C_INDEFINITE, GSS_C_ACCEPT, GSS_C_INITIATE, GSS_C_NT_USER_NAME,
        GSS_S_COMPLETE,
    };
    use std::ffi::CString;
    use std::ptr;

    /// A credential for `principal` (`None`: the store's default) with the MIT credential
    /// store `store` (`keytab`, `client_keytab`, `ccache`): `gss_acquire_cred_from`.
    pub(super) fn acquire_from(
        principal: Option<&str>,
        usage: CredUsage,
        store: &[(&str, &str)],
    ) -> Result<Cred, GssFailure> {
        let text =
            |s: &str| CString::new(s).map_err(|_| GssFailure::new(format!("a NUL byte in {s:?}")));
        let pairs: Vec<(CString, CString)> = store
            .iter()
            .map(|(k, v)| Ok((text(k)?, text(v)?)))
            .collect::<Result<_, GssFailure>>()?;
        let mut elements: Vec<gss_key_value_element_desc> = pairs
            .iter()
            .map(|(k, v)| gss_key_value_element_desc {
                key: k.as_ptr(),
                value: v.as_ptr(),
            })
            .collect();
        let set = gss_key_value_set_desc {
            count: elements.len() as OM_uint32,
            elements: elements.as_mut_ptr(),
        };
        let mut minor: OM_uint32 = 0;
        let mut name: gss_name_t = ptr::null_mut();
        if let Some(principal) = principal {
            let mut buffer = gss_buffer_desc {
                length: principal.len(),
                value: principal.as_ptr() as *mut _,
            };
            // SAFETY: the buffer points at `principal`, alive for the call; the name type is
            // the library's own static OID; `name` receives a fresh name released below.
            let major =
                unsafe { gss_import_name(&mut minor, &mut buffer, GSS_C_NT_USER_NAME, &mut name) };
            check(major, minor, "the principal's name")?;
        }
        let mut cred: gss_cred_id_t = ptr::null_mut();
        let usage = match usage {
            CredUsage::Accept => GSS_C_ACCEPT,
            _ => GSS_C_INITIATE,
        };
        // SAFETY: every pointer is valid for the call (the store's strings live in `pairs`,
        // its elements in `elements`); a null mechanism set asks for the default mechanism;
        // `cred` receives a fresh credential that `Cred::from_c` then owns.
        let major = unsafe {
            gss_acquire_cred_from(
                &mut minor,
                name,
                _GSS_C_INDEFINITE,
                ptr::null_mut::<libgssapi_sys::gss_OID_set_desc>(),
                usage as i32,
                &set,
                &mut cred,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        if !name.is_null() {
            let mut ignored: OM_uint32 = 0;
            // SAFETY: `name` came from gss_import_name above and is released once.
            unsafe { gss_release_name(&mut ignored, &mut name) };
        }
        check(major, minor, "acquiring the credential")?;
        // SAFETY: `cred` is the fresh credential gss_acquire_cred_from returned.
        Ok(unsafe { Cred::from_c(cred) })
    }

    fn check(major: OM_uint32, minor: OM_uint32, what: &str) -> Result<(), GssFailure> {
        if major == GSS_S_COMPLETE {
            return Ok(());
        }
        Err(failure(
            what,
            Error {
                major: MajorFlags::from_bits_retain(major),
                minor,
            },
        ))
    }
}
