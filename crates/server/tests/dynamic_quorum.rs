//! A dynamic quorum (KIP-853) of real processes: one controller formatted `--standalone`, two
//! more that start as observers and are added with `kafka-metadata-quorum add-controller`;
//! then the leader itself is removed with `remove-controller` and the other two carry on.

mod common;

use common::{committed_leader, describe, fjord, wait_for, Node};
use fjord_protocol::generated::update_raft_voter_request as uv;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::collections::BTreeSet;
use std::time::Duration;

fn voters(p: &fjord_protocol::generated::describe_quorum_response::PartitionData) -> BTreeSet<i32> {
    p.current_voters.iter().map(|v| v.replica_id).collect()
}

fn run_tool(args: &[&str]) -> String {
    let out = fjord(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Three controllers formatted with `--initial-controllers` and started, with their metadata
/// directory ids, once a leader has committed with all three as voters.
struct InitialQuorum {
    _root: tempfile::TempDir,
    root_path: std::path::PathBuf,
    bootstrap: String,
    dirs: Vec<String>,
    nodes: Vec<Node>,
    addrs: Vec<String>,
    described: fjord_protocol::generated::describe_quorum_response::PartitionData,
}

fn initial_quorum(rt: &tokio::runtime::Runtime) -> InitialQuorum {
    listed_quorum(rt, 3, 3)
}

/// `listed` controllers formatted with `--initial-controllers`, the first `started` of them
/// started (the others never run: voters that never register).
fn listed_quorum(rt: &tokio::runtime::Runtime, listed: usize, started: usize) -> InitialQuorum {
    let root = tempfile::tempdir().unwrap();
    let ports: Vec<u16> = (0..listed).map(|_| common::free_port()).collect();
    let bootstrap = format!(
        "controller.quorum.bootstrap.servers={}",
        ports
            .iter()
            .map(|p| format!("127.0.0.1:{p}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let dirs: Vec<String> = (0..listed).map(|_| common::random_uuid()).collect();
    let initial = (0..listed)
        .map(|i| format!("{}@127.0.0.1:{}:{}", i + 1, ports[i], dirs[i]))
        .collect::<Vec<_>>()
        .join(",");
    let cluster_id = common::random_uuid();
    let mut nodes: Vec<Node> = (0..started)
        .map(|i| Node::controller(root.path(), i as i32 + 1, ports[i], &bootstrap, ""))
        .collect();
    for n in &mut nodes {
        n.format(&cluster_id, &["--initial-controllers", &initial]);
        n.start();
    }
    let addrs: Vec<String> = nodes.iter().map(Node::addr).collect();
    let all: BTreeSet<i32> = (1..=listed as i32).collect();
    let described = wait_for(Duration::from_secs(30), || {
        rt.block_on(describe(&addrs))
            .filter(|p| committed_leader(p) && voters(p) == all)
    })
    .unwrap_or_else(|| panic!("no quorum: {}", nodes[0].log_tail()));
    InitialQuorum {
        root_path: root.path().to_path_buf(),
        _root: root,
        bootstrap,
        dirs,
        nodes,
        addrs,
        described,
    }
}

/// UpdateRaftVoter: node 2 announces a second listener and the leader rewrites the voter set
/// (`p` the quorum as described before); an unknown voter is refused. The quorum after.
fn second_listener(
    rt: &tokio::runtime::Runtime,
    nodes: &[Node],
    addrs: &[String],
    cluster_id: &str,
    p: &fjord_protocol::generated::describe_quorum_response::PartitionData,
) -> fjord_protocol::generated::describe_quorum_response::PartitionData {
    let leader_addr = format!("127.0.0.1:{}", nodes[(p.leader_id - 1) as usize].port);
    let dir2 = fjord_util::uuid_text::decode(&nodes[1].directory_id()).unwrap();
    let listener = |name: &str| uv::Listener {
        name: name.into(),
        host: "127.0.0.1".into(),
        port: nodes[1].port,
        ..Default::default()
    };
    let r = rt.block_on(common::call(
        &leader_addr,
        RequestBody::UpdateRaftVoter(uv::UpdateRaftVoterRequest {
            cluster_id: Some(cluster_id.to_string()),
            current_leader_epoch: p.leader_epoch,
            voter_id: 2,
            voter_directory_id: dir2,
            listeners: vec![listener("CONTROLLER"), listener("EXTRA")],
            ..Default::default()
        }),
        0,
    ));
    let Some(ResponseBody::UpdateRaftVoter(r)) = r else {
        panic!("no UpdateRaftVoter response: {r:?}")
    };
    assert_eq!(r.error_code, 0);
    assert_eq!(r.current_leader.leader_id, p.leader_id);
    let r = rt.block_on(common::call(
        &leader_addr,
        RequestBody::UpdateRaftVoter(uv::UpdateRaftVoterRequest {
            cluster_id: Some(cluster_id.to_string()),
            voter_id: 9,
            voter_directory_id: dir2,
            ..Default::default()
        }),
        0,
    ));
    let Some(ResponseBody::UpdateRaftVoter(r)) = r else {
        panic!("no UpdateRaftVoter response")
    };
    assert_eq!(r.error_code, ErrorCode::VoterNotFound.code());
    let p = wait_for(Duration::from_secs(20), || {
        rt.block_on(describe(addrs)).filter(committed_leader)
    })
    .expect("a leader");
    let status = run_tool(&[
        "kafka-metadata-quorum",
        "--bootstrap-controller",
        &addrs[2],
        "describe",
        "--status",
    ]);
    assert!(
        status.contains(&format!(
            "\"endpoints\": [\"CONTROLLER://127.0.0.1:{0}\", \"EXTRA://127.0.0.1:{0}\"]",
            nodes[1].port
        )),
        "{status}"
    );
    p
}

/// The removed controller `nodes[idx]` (id `leader`) is no longer a voter, so its registration
/// can be removed; it is still running, so it registers again (KIP-1312). `others`: the
/// remaining voters' addresses.
fn removed_controller_registers_again(
    rt: &tokio::runtime::Runtime,
    nodes: &[Node],
    idx: usize,
    others: &[String],
    leader: i32,
) {
    let registrations = |n: &Node| {
        std::fs::read_to_string(n.dir.join("server.log"))
            .unwrap_or_default()
            .matches("registered as a controller")
            .count()
    };
    let before = wait_for(Duration::from_secs(20), || {
        let c = registrations(&nodes[idx]);
        (c >= 1).then_some(c)
    })
    .expect("it registered once");
    let p = rt.block_on(describe(others)).expect("a leader");
    let active = nodes[(p.leader_id - 1) as usize].addr();
    let r = rt.block_on(common::call(
        &active,
        RequestBody::UnregisterController(
            fjord_protocol::generated::unregister_controller_request::UnregisterControllerRequest {
                controller_id: leader,
                ..Default::default()
            },
        ),
        0,
    ));
    let Some(ResponseBody::UnregisterController(r)) = r else {
        panic!("no UnregisterController response: {r:?}")
    };
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    let again = wait_for(Duration::from_secs(20), || {
        (registrations(&nodes[idx]) > before).then_some(())
    });
    assert!(
        again.is_some(),
        "the live controller did not register again: {}",
        nodes[idx].log_tail()
    );
}

#[test]
fn controllers_join_and_leave_a_dynamic_quorum() {
    let root = tempfile::tempdir().unwrap();
    let ports: Vec<u16> = (0..3).map(|_| common::free_port()).collect();
    let bootstrap = format!("controller.quorum.bootstrap.servers=127.0.0.1:{}", ports[0]);
    let cluster_id = common::random_uuid();
    let mut nodes: Vec<Node> = (0..3)
        .map(|i| Node::controller(root.path(), i as i32 + 1, ports[i], &bootstrap, ""))
        .collect();
    nodes[0].format(&cluster_id, &["--standalone"]);
    nodes[1].format(&cluster_id, &["--no-initial-controllers"]);
    nodes[2].format(&cluster_id, &["--no-initial-controllers"]);
    for n in &mut nodes {
        n.start();
    }
    let addrs: Vec<String> = nodes.iter().map(Node::addr).collect();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let p = wait_for(Duration::from_secs(30), || {
        rt.block_on(describe(&addrs[..1])).filter(|p| {
            committed_leader(p)
                && p.observers
                    .iter()
                    .map(|o| o.replica_id)
                    .collect::<BTreeSet<_>>()
                    == [2, 3].into()
        })
    })
    .unwrap_or_else(|| panic!("no leader with two observers: {}", nodes[1].log_tail()));
    assert_eq!(p.leader_id, 1);
    assert_eq!(voters(&p), [1].into());

    for n in &nodes[1..] {
        let out = run_tool(&[
            "kafka-metadata-quorum",
            "--bootstrap-controller",
            &addrs[0],
            "--command-config",
            n.config.to_str().unwrap(),
            "add-controller",
        ]);
        assert_eq!(
            out.trim(),
            format!(
                "Added controller {} with directory id {} and endpoints: CONTROLLER://127.0.0.1:{}",
                n.id,
                n.directory_id(),
                n.port
            )
        );
    }
    let p = wait_for(Duration::from_secs(20), || {
        rt.block_on(describe(&addrs))
            .filter(|p| voters(p) == [1, 2, 3].into() && committed_leader(p))
    })
    .expect("three voters");
    assert!(p.observers.is_empty(), "{:?}", p.observers);
    let status = run_tool(&[
        "kafka-metadata-quorum",
        "--bootstrap-controller",
        &addrs[1],
        "describe",
        "--status",
    ]);
    assert!(
        status.contains(&format!("ClusterId:              {cluster_id}")),
        "{status}"
    );
    for n in &nodes {
        assert!(
            status.contains(&format!(
                "{{\"id\": {}, \"directoryId\": \"{}\", \"endpoints\": [\"CONTROLLER://127.0.0.1:{}\"]}}",
                n.id,
                n.directory_id(),
                n.port
            )),
            "{status}"
        );
    }

    let p = second_listener(&rt, &nodes, &addrs, &cluster_id, &p);

    // Remove the leader itself: it hands over once the change commits.
    let leader = p.leader_id;
    let idx = (leader - 1) as usize;
    let out = run_tool(&[
        "kafka-metadata-quorum",
        "--bootstrap-controller",
        &addrs[0],
        "remove-controller",
        "--controller-id",
        &leader.to_string(),
        "--controller-directory-id",
        &nodes[idx].directory_id(),
    ]);
    assert_eq!(
        out.trim(),
        format!(
            "Removed  KRaft controller {leader} with directory id {}",
            nodes[idx].directory_id()
        )
    );
    let others: Vec<String> = nodes
        .iter()
        .filter(|n| n.id != leader)
        .map(Node::addr)
        .collect();
    let p = wait_for(Duration::from_secs(20), || {
        rt.block_on(describe(&others)).filter(|p| {
            p.leader_id != leader && committed_leader(p) && !voters(p).contains(&leader)
        })
    })
    .unwrap_or_else(|| panic!("the quorum did not move on: {}", nodes[idx].log_tail()));
    assert_eq!(voters(&p).len(), 2);
    // The removed controller stays on as an observer, still fetching.
    let p = wait_for(Duration::from_secs(20), || {
        rt.block_on(describe(&others))
            .filter(|p| p.observers.iter().any(|o| o.replica_id == leader))
    });
    assert!(p.is_some(), "the removed controller is not observing");

    removed_controller_registers_again(&rt, &nodes, idx, &others, leader);
}

#[test]
fn initial_controllers_form_a_quorum_of_three() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let q = initial_quorum(&rt);
    for (n, d) in q.nodes.iter().zip(&q.dirs) {
        assert_eq!(
            &n.directory_id(),
            d,
            "the listed directory id is the node's"
        );
    }
    for v in &q.described.current_voters {
        assert_eq!(
            fjord_util::uuid_text::encode(&v.replica_directory_id),
            q.dirs[(v.replica_id - 1) as usize]
        );
    }
}

#[test]
fn a_dead_controller_is_removed_and_unregistered() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let InitialQuorum {
        _root: _keep_dir,
        dirs,
        mut nodes,
        addrs,
        described: p,
        ..
    } = initial_quorum(&rt);
    // Controller 3 (not the leader if possible) dies for good.
    let gone = if p.leader_id == 3 { 2 } else { 3 };
    let gone_idx = (gone - 1) as usize;
    // Wait until it registered, so there is a registration to remove.
    let unregister = |rt: &tokio::runtime::Runtime, leader_addr: &str| {
        let r = rt.block_on(common::call(
            leader_addr,
            RequestBody::UnregisterController(
                fjord_protocol::generated::unregister_controller_request::UnregisterControllerRequest {
                    controller_id: gone,
                    ..Default::default()
                },
            ),
            0,
        ));
        match r {
            Some(ResponseBody::UnregisterController(r)) => Some((r.error_code, r.error_message)),
            _ => None,
        }
    };
    let leader_addr = addrs[(p.leader_id - 1) as usize].clone();
    let voter_refusal = wait_for(Duration::from_secs(20), || {
        unregister(&rt, &leader_addr).filter(|(c, _)| *c == ErrorCode::InvalidRequest.code())
    })
    .expect("a voter cannot be unregistered");
    assert_eq!(
        voter_refusal.1.as_deref(),
        Some(
            format!("Cannot unregister controller {gone} because it is part of the voter set.")
                .as_str()
        )
    );
    // It registered (its log says so) before it dies for good.
    let registered = wait_for(Duration::from_secs(20), || {
        std::fs::read_to_string(nodes[gone_idx].dir.join("server.log"))
            .ok()
            .filter(|l| l.contains("registered as a controller"))
    });
    assert!(registered.is_some(), "controller {gone} registered");
    nodes[gone_idx].kill();
    let live: Vec<String> = nodes
        .iter()
        .filter(|n| n.running())
        .map(Node::addr)
        .collect();
    // The operator goes through a broker (--bootstrap-server), which forwards to the active
    // controller.
    let mut broker = Node::broker(
        _keep_dir.path(),
        10,
        common::free_port(),
        &format!("controller.quorum.bootstrap.servers={}", live.join(",")),
        "",
    );
    broker.format(&nodes[0].cluster_id(), &[]);
    broker.start();
    let status = wait_for(Duration::from_secs(30), || {
        let out = common::fjord(&[
            "kafka-metadata-quorum",
            "--bootstrap-server",
            &broker.broker_addr(),
            "describe",
            "--status",
        ]);
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).to_string())
    })
    .unwrap_or_else(|| panic!("describe through a broker:\n{}", broker.log_tail()));
    let cluster_id = nodes[0].cluster_id();
    assert!(
        status.contains(&format!("ClusterId:              {cluster_id}")),
        "{status}"
    );
    assert!(status.contains("LeaderId:"), "{status}");
    let out = run_tool(&[
        "kafka-metadata-quorum",
        "--bootstrap-server",
        &broker.broker_addr(),
        "remove-controller",
        "--controller-id",
        &gone.to_string(),
        "--controller-directory-id",
        &dirs[gone_idx],
        "--unregister",
    ]);
    assert!(
        out.contains(&format!("Removed the registration of controller {gone}")),
        "{out}"
    );
    let p = wait_for(Duration::from_secs(20), || {
        rt.block_on(describe(&live))
            .filter(|p| committed_leader(p) && !voters(p).contains(&gone))
    })
    .expect("two voters");
    let leader_addr = addrs[(p.leader_id - 1) as usize].clone();
    let (code, message) = unregister(&rt, &leader_addr).expect("an answer");
    assert_eq!(code, ErrorCode::ControllerIdNotRegistered.code());
    assert_eq!(
        message.as_deref(),
        Some(format!("Controller ID {gone} is not currently registered.").as_str())
    );
}

#[test]
fn a_voter_on_a_new_port_announces_itself() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let InitialQuorum {
        _root: _keep_dir,
        root_path,
        bootstrap,
        dirs,
        mut nodes,
        addrs,
        described: p,
        ..
    } = initial_quorum(&rt);
    let moved = if p.leader_id == 3 { 2 } else { 3 };
    let idx = (moved - 1) as usize;
    nodes[idx].kill();
    // Same node, same data, a new controller port.
    let new_port = common::free_port();
    nodes[idx] = Node::controller(&root_path, moved, new_port, &bootstrap, "");
    nodes[idx].start();
    let live: Vec<String> = nodes.iter().map(Node::addr).collect();
    let leader_addr = addrs[(p.leader_id - 1) as usize].clone();
    let want = format!(
        "{{\"id\": {moved}, \"directoryId\": \"{}\", \"endpoints\": [\"CONTROLLER://127.0.0.1:{new_port}\"]}}",
        dirs[idx]
    );
    let learned = wait_for(Duration::from_secs(30), || {
        let out = fjord(&[
            "kafka-metadata-quorum",
            "--bootstrap-controller",
            &leader_addr,
            "describe",
            "--status",
        ]);
        let text = String::from_utf8(out.stdout).ok()?;
        text.contains(&want).then_some(text)
    });
    assert!(
        learned.is_some(),
        "the voter set never learned the new port: {}",
        nodes[idx].log_tail()
    );
    let p = rt.block_on(describe(&live)).expect("a leader");
    assert_eq!(voters(&p), [1, 2, 3].into());
    // The leader reaches it at the new port: it stays caught up.
    let caught_up = wait_for(Duration::from_secs(20), || {
        let p = rt.block_on(describe(&live))?;
        let leader_end = p
            .current_voters
            .iter()
            .find(|v| v.replica_id == p.leader_id)?
            .log_end_offset;
        let mine = p.current_voters.iter().find(|v| v.replica_id == moved)?;
        (mine.log_end_offset >= leader_end).then_some(())
    });
    assert!(caught_up.is_some());
}

#[test]
fn remove_controller_unregister_in_its_four_cases() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    // Four voters listed, three started: voter 4 never registers.
    let q = listed_quorum(&rt, 4, 3);
    let bootstrap = q.addrs.join(",");
    let remove = |id: i32| {
        fjord(&[
            "kafka-metadata-quorum",
            "--bootstrap-controller",
            &bootstrap,
            "remove-controller",
            "--controller-id",
            &id.to_string(),
            "--controller-directory-id",
            &q.dirs[(id - 1) as usize],
            "--unregister",
        ])
    };
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();

    // A voter that is not registered: removed; nothing to unregister; success.
    let o = remove(4);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    let stdout = text(&o.stdout);
    // Kafka prints two spaces after "Removed" (its format string adds one).
    assert!(
        stdout.contains("Removed  KRaft controller 4 with directory id"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Controller 4 was not registered; nothing to unregister"),
        "{stdout}"
    );
    // Neither a voter nor registered: the removal fails and points to kafka-cluster.
    let o = remove(4);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("kafka-cluster unregister-controller --controller-id 4"),
        "{}",
        text(&o.stderr)
    );

    // A voter that is registered (and alive, not the leader): removed and unregistered.
    let p = wait_for(Duration::from_secs(20), || {
        rt.block_on(describe(&q.addrs))
            .filter(|p| committed_leader(p) && voters(p) == [1, 2, 3].into())
    })
    .expect("three voters");
    let x = if p.leader_id == 3 { 2 } else { 3 };
    let registrations = |id: i32| {
        std::fs::read_to_string(q.nodes[(id - 1) as usize].dir.join("server.log"))
            .unwrap_or_default()
            .matches("registered as a controller")
            .count()
    };
    assert!(
        wait_for(Duration::from_secs(20), || (registrations(x) >= 1)
            .then_some(()))
        .is_some(),
        "controller {x} registers"
    );
    let o = remove(x);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(
        text(&o.stdout).contains(&format!("Removed the registration of controller {x}")),
        "{}",
        text(&o.stdout)
    );
    // Still running, it finds its registration gone and registers again.
    assert!(
        wait_for(Duration::from_secs(30), || (registrations(x) >= 2)
            .then_some(()))
        .is_some(),
        "a live controller that was unregistered registers again:\n{}",
        q.nodes[(x - 1) as usize].log_tail()
    );

    // Registered but no longer a voter: remove-controller fails and points to kafka-cluster,
    // which unregisters it.
    let o = remove(x);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains(&format!(
            "kafka-cluster unregister-controller --controller-id {x}"
        )),
        "{}",
        text(&o.stderr)
    );
    let o = fjord(&[
        "kafka-cluster",
        "unregister-controller",
        "--bootstrap-controller",
        &bootstrap,
        "--controller-id",
        &x.to_string(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout).trim(),
        format!("Controller {x} is no longer registered.")
    );
}

/// `kraft.version` as `kafka-features describe` shows it.
fn kraft_level(bootstrap: &str) -> Option<String> {
    let out = fjord(&[
        "kafka-features",
        "--bootstrap-server",
        bootstrap,
        "describe",
    ]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find(|l| l.contains("Feature: kraft.version "))
        .and_then(|l| l.split_whitespace().nth(7).map(str::to_string))
}

/// `kafka-features upgrade --feature kraft.version=1`: its exit status and output.
fn upgrade_kraft(bootstrap: &str) -> (bool, String) {
    let out = fjord(&[
        "kafka-features",
        "--bootstrap-server",
        bootstrap,
        "upgrade",
        "--feature",
        "kraft.version=1",
    ]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// A static quorum (`controller.quorum.voters`, kraft.version 0) moves to kraft.version 1 as
/// Kafka's does (KIP-853): refused while a voter has not announced its directory id to the
/// leader of this epoch (it is down), then done once it has: the voters, with their directory ids, are in
/// the log, a controller can be removed, and the nodes restart on the log's voters although
/// their configs still list three.
#[test]
fn a_static_quorum_moves_to_kraft_version_1() {
    let root = tempfile::tempdir().unwrap();
    let mut nodes = common::combined_cluster(root.path(), 3, "");
    let bs = nodes[0].broker_addr();
    let addrs: Vec<String> = nodes.iter().map(Node::addr).collect();
    let rt = tokio::runtime::Runtime::new().unwrap();
    wait_for(Duration::from_secs(30), || {
        kraft_level(&bs).filter(|l| l == "0")
    })
    .unwrap_or_else(|| panic!("kraft.version 0 at first: {}", nodes[0].log_tail()));
    // Voter 3 goes down, and 1 and 2 restart: the new epoch's leader never hears from 3.
    nodes[2].kill();
    for n in &mut nodes[..2] {
        n.kill();
        n.start();
    }
    let refusal = wait_for(Duration::from_secs(30), || {
        let (ok, text) = upgrade_kraft(&bs);
        assert!(!ok, "upgraded with a voter down: {text}");
        text.contains("because not all of the voters support it")
            .then_some(text)
    });
    assert!(refusal.is_some(), "Kafka's refusal while voter 3 is down");
    assert_eq!(kraft_level(&bs).as_deref(), Some("0"));
    nodes[2].start();
    let done = wait_for(Duration::from_secs(60), || {
        let (ok, text) = upgrade_kraft(&bs);
        ok.then_some(text)
    })
    .unwrap_or_else(|| panic!("no upgrade: {}", upgrade_kraft(&bs).1));
    assert!(done.contains("kraft.version was upgraded to 1."), "{done}");
    let p = wait_for(Duration::from_secs(30), || {
        rt.block_on(describe(&addrs)).filter(committed_leader)
    })
    .expect("a leader");
    for n in &nodes {
        let v = p
            .current_voters
            .iter()
            .find(|v| v.replica_id == n.id)
            .unwrap_or_else(|| panic!("voter {} listed: {p:?}", n.id));
        assert_eq!(
            fjord_util::uuid_text::encode(&v.replica_directory_id),
            n.directory_id(),
            "voter {}'s directory id is in the log",
            n.id
        );
    }
    wait_for(Duration::from_secs(30), || {
        kraft_level(&bs).filter(|l| l == "1")
    })
    .expect("kraft.version 1 finalized");
    // Now the voters can change: voter 3 goes.
    let out = run_tool(&[
        "kafka-metadata-quorum",
        "--bootstrap-controller",
        &addrs[0],
        "remove-controller",
        "--controller-id",
        "3",
        "--controller-directory-id",
        &nodes[2].directory_id(),
    ]);
    assert!(out.contains("Removed"), "{out}");
    wait_for(Duration::from_secs(30), || {
        rt.block_on(describe(&addrs[..2]))
            .filter(|p| voters(p) == [1, 2].into() && committed_leader(p))
    })
    .expect("voters 1 and 2");
    // Restarted with controller.quorum.voters still naming three, nodes 1 and 2 keep the
    // log's two.
    nodes[2].kill();
    for n in &mut nodes[..2] {
        n.kill();
        n.start();
    }
    let p = wait_for(Duration::from_secs(60), || {
        rt.block_on(describe(&addrs[..2])).filter(committed_leader)
    })
    .unwrap_or_else(|| panic!("no leader after the restart: {}", nodes[0].log_tail()));
    assert_eq!(voters(&p), [1, 2].into());
    assert_eq!(kraft_level(&nodes[0].broker_addr()).as_deref(), Some("1"));
}
