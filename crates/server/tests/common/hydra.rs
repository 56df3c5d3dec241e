//! Ory Hydra (`tests/oauth/hydra.sh`), a real OpenID Connect provider, on loopback for the
//! OAUTHBEARER tests: started with an in-memory store and JWT access tokens, its admin API
//! used to register clients, shorten their tokens' lifetime and rotate the signing key, and
//! its token endpoint to obtain tokens as a client would.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running provider.
pub struct Hydra {
    child: Option<Child>,
    /// The public port (token endpoint, JWKS).
    pub public: u16,
    /// The admin port.
    pub admin: u16,
}

impl Drop for Hydra {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One HTTP/1.1 request on loopback: (status, body).
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return (0, String::new());
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    if s.write_all(req.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let Some((head, rest)) = text.split_once("\r\n\r\n") else {
        return (0, text);
    };
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

impl Hydra {
    /// Builds (once) and starts a provider in `root`, and waits until it serves.
    pub fn start(root: &Path) -> Hydra {
        let script = super::repo_root().join("tests/oauth/hydra.sh");
        let out = Command::new("bash")
            .arg(&script)
            .arg("fetch")
            .output()
            .expect("hydra.sh");
        assert!(out.status.success(), "{}", super::show(&out));
        let bin = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let (public, admin) = (super::free_port(), super::free_port());
        let log = std::fs::File::create(root.join("hydra.log")).unwrap();
        let child = Command::new(bin)
            .args(["serve", "all", "--dev", "--sqa-opt-out"])
            .env("DSN", "memory")
            .env("SECRETS_SYSTEM", "fjord-oauth-tests-system-secret")
            .env("URLS_SELF_ISSUER", format!("http://127.0.0.1:{public}"))
            .env("STRATEGIES_ACCESS_TOKEN", "jwt")
            .env("SERVE_PUBLIC_HOST", "127.0.0.1")
            .env("SERVE_PUBLIC_PORT", public.to_string())
            .env("SERVE_ADMIN_HOST", "127.0.0.1")
            .env("SERVE_ADMIN_PORT", admin.to_string())
            .env("LOG_LEVEL", "warn")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start hydra");
        let hydra = Hydra {
            child: Some(child),
            public,
            admin,
        };
        let up = super::wait_for(Duration::from_secs(60), || {
            (http(admin, "GET", "/health/ready", &[], "").0 == 200).then_some(())
        });
        assert!(up.is_some(), "hydra never became ready");
        hydra
    }

    /// The issuer tokens name (`iss`).
    pub fn issuer(&self) -> String {
        format!("http://127.0.0.1:{}", self.public)
    }

    /// The JWKS endpoint.
    pub fn jwks_url(&self) -> String {
        format!("{}/.well-known/jwks.json", self.issuer())
    }

    /// The token endpoint.
    pub fn token_url(&self) -> String {
        format!("{}/oauth2/token", self.issuer())
    }

    /// Registers a client-credentials client that may ask for `audiences`.
    pub fn client(&self, id: &str, secret: &str, audiences: &[&str]) {
        let body = serde_json::json!({
            "client_id": id,
            "client_secret": secret,
            "grant_types": ["client_credentials"],
            "audience": audiences,
            "token_endpoint_auth_method": "client_secret_basic",
        });
        let (status, text) = http(
            self.admin,
            "POST",
            "/admin/clients",
            &[("Content-Type", "application/json")],
            &body.to_string(),
        );
        assert_eq!(status, 201, "{text}");
    }

    /// Makes `id`'s access tokens live `seconds`.
    pub fn lifespan(&self, id: &str, seconds: u32) {
        let body = serde_json::json!({"client_credentials_grant_access_token_lifespan": format!("{seconds}s")});
        let (status, text) = http(
            self.admin,
            "PUT",
            &format!("/admin/clients/{id}/lifespans"),
            &[("Content-Type", "application/json")],
            &body.to_string(),
        );
        assert_eq!(status, 200, "{text}");
    }

    /// Adds a new signing key for access tokens (new tokens carry its key id).
    pub fn rotate(&self) {
        let body = serde_json::json!({"alg": "RS256", "use": "sig", "kid": format!("rotated-{}", super::free_port())});
        let (status, text) = http(
            self.admin,
            "POST",
            "/admin/keys/hydra.jwt.access-token",
            &[("Content-Type", "application/json")],
            &body.to_string(),
        );
        assert_eq!(status, 201, "{text}");
    }

    /// A client-credentials token for `id`, for `audience` if given.
    pub fn token(&self, id: &str, secret: &str, audience: Option<&str>) -> String {
        use base64::Engine;
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}"));
        let mut body = "grant_type=client_credentials".to_string();
        if let Some(a) = audience {
            body.push_str(&format!("&audience={a}"));
        }
        let (status, text) = http(
            self.public,
            "POST",
            "/oauth2/token",
            &[
                ("Authorization", &format!("Basic {basic}")),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            &body,
        );
        assert_eq!(status, 200, "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["access_token"].as_str().unwrap().to_string()
    }

    /// Stops the provider (SIGKILL).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
