//! Controller unregistration (KIP-1312) in a static quorum, on a real process formatted at
//! 4.3 (`--release-version 4.3`, level 30): a stopped observer controller from an older build
//! blocks `kafka-features upgrade` to 4.4, and cannot be unregistered at 4.3
//! (UNSUPPORTED_VERSION: Kafka gates the record at 4.4-IV2, the KIP's own limit); a
//! replacement registering under its id lifts the block; at 4.4-IV2 `kafka-cluster
//! unregister-controller` removes the registration; a voter cannot be unregistered;
//! `kafka-metadata-quorum remove-controller --unregister` fails on a static quorum and points
//! to `kafka-cluster unregister-controller`.

mod common;

use common::{call, fjord, free_port, random_uuid, wait_for, Node};
use fjord_protocol::generated::controller_registration_request::{
    ControllerRegistrationRequest, Feature, Listener,
};
use fjord_protocol::{RequestBody, ResponseBody, Uuid};
use std::process::Output;
use std::time::Duration;

fn out(o: &Output) -> (bool, String, String) {
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Voter 1 (`node`) cannot be unregistered; on a static quorum, remove-controller cannot
/// remove it either, and says what to use instead.
fn a_voter_is_not_unregistered(bootstrap: &str, node: &Node) {
    let (ok, _, stderr) = out(&fjord(&[
        "kafka-cluster",
        "unregister-controller",
        "--bootstrap-server",
        bootstrap,
        "--controller-id",
        "1",
    ]));
    assert!(!ok);
    assert!(
        stderr.contains("Cannot unregister controller 1 because it is part of the voter set."),
        "{stderr}"
    );
    assert!(stderr.contains("remove-controller"), "{stderr}");
    let (ok, _, stderr) = out(&fjord(&[
        "kafka-metadata-quorum",
        "--bootstrap-server",
        bootstrap,
        "remove-controller",
        "--controller-id",
        "1",
        "--controller-directory-id",
        &node.directory_id(),
        "--unregister",
    ]));
    assert!(!ok);
    assert!(
        stderr.contains("kafka-cluster unregister-controller --controller-id 1"),
        "{stderr}"
    );
}

#[test]
fn a_stopped_observer_controller_blocks_an_upgrade_until_it_is_unregistered() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (broker_port, port) = (free_port(), free_port());
    let voters = format!("controller.quorum.voters=1@127.0.0.1:{port}");
    let mut node = Node::combined(root.path(), 1, (broker_port, port), &voters, "");
    node.format(&random_uuid(), &["--release-version", "4.3"]);
    node.start();
    let bootstrap = node.broker_addr();
    let describe = || {
        out(&fjord(&[
            "kafka-features",
            "--bootstrap-server",
            &bootstrap,
            "describe",
        ]))
    };
    let at_4_3 = wait_for(Duration::from_secs(60), || {
        let (ok, stdout, _) = describe();
        (ok && stdout.contains("FinalizedVersionLevel: 4.3-IV0 ")).then_some(stdout)
    });
    assert!(at_4_3.is_some(), "{:?}\n{}", describe(), node.log_tail());
    assert!(
        describe().1.contains("SupportedMaxVersion: 4.4-IV2 "),
        "{:?}",
        describe()
    );

    // An observer controller of an older build (metadata.version up to 4.3-IV0) registered,
    // then stopped for good.
    let register = |incarnation: u128, max: i16| {
        wait_for(Duration::from_secs(30), || {
            match rt.block_on(call(&node.addr(), registration(incarnation, max), 0)) {
                Some(ResponseBody::ControllerRegistration(r)) if r.error_code == 0 => Some(()),
                _ => None,
            }
        })
    };
    assert!(register(77, 30).is_some());

    let upgrade = || {
        out(&fjord(&[
            "kafka-features",
            "--bootstrap-server",
            &bootstrap,
            "upgrade",
            "--release-version",
            "4.4",
        ]))
    };
    // The release's every feature is asked for (as Kafka's tool does, kraft.version among
    // them), and all fail with it.
    let (ok, stdout, stderr) = upgrade();
    assert!(!ok, "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{stdout}");
    assert!(
        lines.iter().all(|l| l.starts_with("Could not upgrade ")
            && l.contains("The update failed for all features since")
            && l.contains("Controller 2 only supports versions")),
        "{stdout}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with(
            "Could not upgrade metadata.version to 33. The update failed for all features"
        )),
        "{stdout}"
    );
    assert!(
        stderr.contains("7 out of 7 operation(s) failed."),
        "{stderr}"
    );

    a_voter_is_not_unregistered(&bootstrap, &node);

    // At 4.3 the stale registration cannot be removed: the record needs 4.4-IV2.
    let unregister = || {
        out(&fjord(&[
            "kafka-cluster",
            "unregister-controller",
            "--bootstrap-server",
            &bootstrap,
            "--id",
            "2",
        ]))
    };
    let (ok, _, stderr) = unregister();
    assert!(!ok);
    assert!(
        stderr.contains(
            "The current MetadataVersion is too old to support controller unregistration \
             (4.3-IV0 is finalized; 4.4-IV2 or later is needed)."
        ),
        "{stderr}"
    );
    // A replacement controller of a newer build registers under the same id (the KIP's way
    // out on an older metadata.version): the upgrade goes through, and then the stopped
    // controller's registration is removed (`--id` is accepted too).
    assert!(register(78, 33).is_some());
    let (ok, stdout, stderr) = upgrade();
    assert!(ok, "{stdout}{stderr}");
    assert_eq!(
        stdout.trim(),
        "eligible.leader.replicas.version was upgraded to 1.\ngroup.version was upgraded to 1.\n\
         kraft.version was upgraded to 1.\nmetadata.version was upgraded to 33.\n\
         share.version was upgraded to 2.\nstreams.version was upgraded to 1.\n\
         transaction.version was upgraded to 2."
    );
    let (_, stdout, _) = describe();
    assert!(
        stdout.contains("FinalizedVersionLevel: 4.4-IV2 "),
        "{stdout}"
    );
    let (ok, stdout, stderr) = unregister();
    assert!(ok, "{stderr}");
    assert_eq!(stdout.trim(), "Controller 2 is no longer registered.");
    let (ok, _, stderr) = unregister();
    assert!(!ok);
    assert!(
        stderr.contains("Controller ID 2 is not currently registered."),
        "{stderr}"
    );
}

/// Controller 2's registration from a build of `incarnation` that runs metadata.version up
/// to `max`.
fn registration(incarnation: u128, max: i16) -> RequestBody {
    RequestBody::ControllerRegistration(ControllerRegistrationRequest {
        controller_id: 2,
        incarnation_id: Uuid::from_u128(incarnation),
        listeners: vec![Listener {
            name: "CONTROLLER".into(),
            host: "127.0.0.1".into(),
            port: free_port(),
            ..Default::default()
        }],
        // Every finalized feature must be supported to register: a 4.3 build runs
        // transaction.version up to 2, group.version up to 1, share.version up to 1 (a
        // 4.4 build, up to 2), and kraft, ELR and streams versions up to 1.
        features: vec![
            Feature {
                name: "metadata.version".into(),
                min_supported_version: 7,
                max_supported_version: max,
                ..Default::default()
            },
            Feature {
                name: "transaction.version".into(),
                min_supported_version: 0,
                max_supported_version: 2,
                ..Default::default()
            },
            Feature {
                name: "group.version".into(),
                min_supported_version: 0,
                max_supported_version: 1,
                ..Default::default()
            },
            Feature {
                name: "share.version".into(),
                min_supported_version: 0,
                max_supported_version: if max >= 33 { 2 } else { 1 },
                ..Default::default()
            },
            Feature {
                name: "kraft.version".into(),
                min_supported_version: 0,
                max_supported_version: 1,
                ..Default::default()
            },
            Feature {
                name: "eligible.leader.replicas.version".into(),
                min_supported_version: 0,
                max_supported_version: 1,
                ..Default::default()
            },
            Feature {
                name: "streams.version".into(),
                min_supported_version: 0,
                max_supported_version: 1,
                ..Default::default()
            },
        ],
        ..Default::default()
    })
}
