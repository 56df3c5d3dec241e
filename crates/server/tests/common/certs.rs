//! Test certificates made at test time with rcgen (never checked in): a CA, node certificates
//! for 127.0.0.1 and localhost, client certificates by common name, and an expired one; each
//! written as PEM files the way Kafka's `ssl.keystore.type=PEM` takes them (key and chain in
//! one key store file).

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, SanType,
};
use std::path::{Path, PathBuf};

/// A certificate authority.
pub struct Ca {
    cert: rcgen::Certificate,
    key: KeyPair,
    /// Its certificate as a PEM file (a trust store).
    pub truststore: PathBuf,
}

impl Ca {
    /// A new CA named `name`, its trust store written in `dir`.
    pub fn new(dir: &Path, name: &str) -> Ca {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let mut dn = DistinguishedName::new();
        dn.push(DnType::CommonName, name);
        params.distinguished_name = dn;
        let key = KeyPair::generate().unwrap();
        let cert = params.self_signed(&key).unwrap();
        let truststore = dir.join(format!("{name}-ca.pem"));
        std::fs::write(&truststore, cert.pem()).unwrap();
        Ca {
            cert,
            key,
            truststore,
        }
    }

    /// A key store (PEM: private key, then the certificate) for `cn`, valid for 127.0.0.1 and
    /// localhost, written to `dir/<file>`; `expired` makes one that ended in 2021.
    pub fn keystore(&self, dir: &Path, file: &str, cn: &str, expired: bool) -> PathBuf {
        let mut params = CertificateParams::new(vec!["localhost".to_string()]).unwrap();
        params
            .subject_alt_names
            .push(SanType::IpAddress("127.0.0.1".parse().unwrap()));
        let mut dn = DistinguishedName::new();
        dn.push(DnType::OrganizationName, "fjord tests");
        dn.push(DnType::CommonName, cn);
        params.distinguished_name = dn;
        params.extended_key_usages = vec![
            ExtendedKeyUsagePurpose::ServerAuth,
            ExtendedKeyUsagePurpose::ClientAuth,
        ];
        if expired {
            params.not_before = rcgen::date_time_ymd(2020, 1, 1);
            params.not_after = rcgen::date_time_ymd(2021, 1, 1);
        }
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.cert, &self.key).unwrap();
        let path = dir.join(file);
        std::fs::write(&path, format!("{}{}", key.serialize_pem(), cert.pem())).unwrap();
        path
    }
}
