//! The listener's guarantees on real sockets: one connection's requests are handled one at a
//! time and answered in order; `max.connections.per.ip`, `max.connections`,
//! `connections.max.idle.ms` and the `queued.max.request.bytes` budget hold.

use fjord_net::client::Client;
use fjord_net::serve::{serve, ByteBudget, Handler, Limits, Reply};
use fjord_protocol::generated::metadata_response::MetadataResponse;
use fjord_protocol::header::RequestFrame;
use fjord_protocol::{RequestBody, ResponseBody};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// Records what it handles; each request waits for a permit of `gate` (when set) and takes
/// longer the earlier it came, so handling out of order or concurrently would show.
#[derive(Default)]
struct Recorder {
    active: AtomicUsize,
    most_active: AtomicUsize,
    handled: Mutex<Vec<i32>>,
    gate: Option<Arc<Semaphore>>,
}

impl Handler for Recorder {
    async fn handle(&self, frame: RequestFrame, _: fjord_net::principal::Caller) -> Reply {
        let now = self.active.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_active.fetch_max(now, Ordering::SeqCst);
        let corr = frame.header.correlation_id;
        if let Some(g) = &self.gate {
            g.acquire().await.expect("gate").forget();
        }
        tokio::time::sleep(Duration::from_millis(20u64.saturating_sub(corr as u64))).await;
        self.handled.lock().unwrap().push(corr);
        self.active.fetch_sub(1, Ordering::SeqCst);
        Reply::Respond(ResponseBody::Metadata(MetadataResponse {
            controller_id: corr,
            ..Default::default()
        }))
    }
}

async fn start(handler: Arc<Recorder>, limits: Limits) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(serve(listener, handler, limits));
    addr
}

fn metadata() -> RequestBody {
    RequestBody::Metadata(Default::default())
}

const WAIT: Duration = Duration::from_secs(5);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_connections_requests_are_handled_one_at_a_time_in_order() {
    let h = Arc::new(Recorder::default());
    let addr = start(h.clone(), Limits::with_max_frame(1 << 20)).await;
    let c = Client::connect(&addr, WAIT).await.unwrap();
    // Twenty requests pipelined on one connection; the first takes longest to handle.
    let calls: Vec<_> = (0..20)
        .map(|_| {
            let c = c.clone();
            tokio::spawn(async move { c.call(metadata(), 12, WAIT).await })
        })
        .collect();
    for call in calls {
        assert!(matches!(call.await.unwrap(), Ok(ResponseBody::Metadata(_))));
    }
    assert_eq!(
        h.most_active.load(Ordering::SeqCst),
        1,
        "handled concurrently"
    );
    let handled = h.handled.lock().unwrap().clone();
    let mut sorted = handled.clone();
    sorted.sort_unstable();
    assert_eq!(handled, sorted, "handled out of order");
    assert_eq!(handled.len(), 20);
}

/// True when the server closes `s` (EOF) within [`WAIT`]; false when it answers or hangs.
async fn closed(s: &mut TcpStream) -> bool {
    let mut b = [0u8; 64];
    matches!(
        tokio::time::timeout(WAIT, s.read(&mut b)).await,
        Ok(Ok(0)) | Ok(Err(_))
    )
}

/// One framed Metadata v0 request with correlation id `corr`.
fn frame(corr: i32) -> Vec<u8> {
    let mut body = vec![0, 3, 0, 0];
    body.extend_from_slice(&corr.to_be_bytes());
    body.extend_from_slice(&[0, 0, 0, 0, 0, 0]); // client id "" and an empty topic array
    let mut f = (body.len() as i32).to_be_bytes().to_vec();
    f.extend(body);
    f
}

async fn answered(s: &mut TcpStream, within: Duration) -> bool {
    let mut size = [0u8; 4];
    matches!(
        tokio::time::timeout(within, s.read_exact(&mut size)).await,
        Ok(Ok(_))
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_connections_per_ip_closes_the_connection_over_it() {
    let limits = Limits {
        max_connections_per_ip: 2,
        ..Limits::with_max_frame(1 << 20)
    };
    let addr = start(Arc::default(), limits).await;
    let mut a = TcpStream::connect(&addr).await.unwrap();
    let mut b = TcpStream::connect(&addr).await.unwrap();
    let mut c = TcpStream::connect(&addr).await.unwrap();
    assert!(
        closed(&mut c).await,
        "a third connection from one address stayed open"
    );
    for s in [&mut a, &mut b] {
        s.write_all(&frame(1)).await.unwrap();
        assert!(answered(s, WAIT).await);
    }
    // A slot freed by a close is taken again.
    drop(a);
    let accepted = async {
        loop {
            let mut d = TcpStream::connect(&addr).await.unwrap();
            d.write_all(&frame(2)).await.unwrap();
            if answered(&mut d, Duration::from_millis(500)).await {
                return;
            }
        }
    };
    tokio::time::timeout(WAIT, accepted)
        .await
        .expect("slot freed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_connections_holds_new_connections_until_one_closes() {
    let limits = Limits {
        max_connections: 1,
        ..Limits::with_max_frame(1 << 20)
    };
    let addr = start(Arc::default(), limits).await;
    let mut a = TcpStream::connect(&addr).await.unwrap();
    a.write_all(&frame(1)).await.unwrap();
    assert!(answered(&mut a, WAIT).await);
    let mut b = TcpStream::connect(&addr).await.unwrap();
    b.write_all(&frame(2)).await.unwrap();
    assert!(
        !answered(&mut b, Duration::from_millis(300)).await,
        "over max.connections"
    );
    drop(a);
    assert!(answered(&mut b, WAIT).await, "served once a slot freed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_connection_is_closed_but_not_one_waiting_for_an_answer() {
    let gate = Arc::new(Semaphore::new(0));
    let h = Arc::new(Recorder {
        gate: Some(gate.clone()),
        ..Default::default()
    });
    let limits = Limits {
        idle_timeout: Duration::from_millis(200),
        ..Limits::with_max_frame(1 << 20)
    };
    let addr = start(h.clone(), limits).await;
    let mut idle = TcpStream::connect(&addr).await.unwrap();
    assert!(closed(&mut idle).await, "an idle connection stayed open");
    let mut busy = TcpStream::connect(&addr).await.unwrap();
    busy.write_all(&frame(1)).await.unwrap();
    // Held well past the idle timeout, then answered on the same connection.
    tokio::time::timeout(WAIT, async {
        while h.active.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap();
    assert!(!answered(&mut busy, Duration::from_millis(600)).await);
    gate.add_permits(1);
    assert!(
        answered(&mut busy, WAIT).await,
        "closed while a request was in flight"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_byte_budget_holds_reads_until_requests_are_answered() {
    let gate = Arc::new(Semaphore::new(0));
    let h = Arc::new(Recorder {
        gate: Some(gate.clone()),
        ..Default::default()
    });
    // Smaller than one request: a request takes all of it while it is handled.
    let budget = ByteBudget::new(8);
    let limits = Limits {
        queued_bytes: Some(budget.clone()),
        observer: None,
        ..Limits::with_max_frame(1 << 20)
    };
    let addr = start(h.clone(), limits).await;
    let mut a = TcpStream::connect(&addr).await.unwrap();
    let mut b = TcpStream::connect(&addr).await.unwrap();
    a.write_all(&frame(1)).await.unwrap();
    tokio::time::timeout(WAIT, async {
        while h.active.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap();
    assert_eq!(budget.available(), 0);
    b.write_all(&frame(2)).await.unwrap();
    assert!(!answered(&mut b, Duration::from_millis(300)).await);
    assert_eq!(
        h.most_active.load(Ordering::SeqCst),
        1,
        "read over the budget"
    );
    gate.add_permits(2);
    assert!(answered(&mut a, WAIT).await);
    assert!(answered(&mut b, WAIT).await);
    tokio::time::timeout(WAIT, async {
        while budget.available() != 8 {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the budget is given back");
}

/// A client connected to `h` served on a loopback port (frames up to 1 MiB).
async fn connected<H: Handler>(h: Arc<H>) -> Client {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(serve(listener, h, Limits::with_max_frame(1 << 20)));
    Client::connect(&addr, WAIT).await.unwrap()
}

/// Answers Produce requests later (once `gate` gives a permit) and Metadata at once,
/// recording what it handled in order.
struct Pipeliner {
    gate: Arc<Semaphore>,
    handled: Mutex<Vec<(&'static str, i32)>>,
    produced: tokio::sync::Notify,
}

impl Handler for Pipeliner {
    async fn handle(&self, frame: RequestFrame, _: fjord_net::principal::Caller) -> Reply {
        let corr = frame.header.correlation_id;
        if frame.api_key == Some(fjord_protocol::ApiKey::Produce) {
            self.handled.lock().unwrap().push(("produce", corr));
            self.produced.notify_one();
            let gate = self.gate.clone();
            return Reply::Later(Box::pin(async move {
                gate.acquire().await.expect("gate").forget();
                Reply::Respond(ResponseBody::Produce(Default::default()))
            }));
        }
        self.handled.lock().unwrap().push(("metadata", corr));
        Reply::Respond(ResponseBody::Metadata(MetadataResponse::default()))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn produce_requests_behind_a_waiting_answer_are_handled_and_anything_else_waits() {
    let h = Arc::new(Pipeliner {
        gate: Arc::new(Semaphore::new(0)),
        handled: Mutex::default(),
        produced: tokio::sync::Notify::new(),
    });
    let c = connected(h.clone()).await;
    let produce = || RequestBody::Produce(Default::default());
    let (c1, c2, c3) = (c.clone(), c.clone(), c.clone());
    let first = tokio::spawn(async move { c1.call(produce(), 9, WAIT).await });
    // The second Produce is handled while the first one's answer waits.
    tokio::time::timeout(WAIT, h.produced.notified())
        .await
        .unwrap();
    let second = tokio::spawn(async move { c2.call(produce(), 9, WAIT).await });
    tokio::time::timeout(WAIT, async {
        while h.handled.lock().unwrap().len() < 2 {
            h.produced.notified().await;
        }
    })
    .await
    .expect("the second Produce was handled while the first waited");
    // A Metadata request waits until both answers are out.
    let mut third = tokio::spawn(async move { c3.call(metadata(), 12, WAIT).await });
    assert!(
        tokio::time::timeout(Duration::from_millis(300), &mut third)
            .await
            .is_err(),
        "Metadata answered while Produce answers were waiting"
    );
    assert_eq!(h.handled.lock().unwrap().len(), 2);
    h.gate.add_permits(2);
    assert!(matches!(first.await.unwrap(), Ok(ResponseBody::Produce(_))));
    assert!(matches!(
        second.await.unwrap(),
        Ok(ResponseBody::Produce(_))
    ));
    assert!(matches!(
        third.await.unwrap(),
        Ok(ResponseBody::Metadata(_))
    ));
    let kinds: Vec<&str> = h.handled.lock().unwrap().iter().map(|(k, _)| *k).collect();
    assert_eq!(kinds, vec!["produce", "produce", "metadata"]);
}

/// Answers every Produce at once, muting the connection for `mute` from the moment it is
/// handled (a quota throttle known before the answer); records when each was handled.
struct Muter {
    mute: Duration,
    handled: Mutex<Vec<std::time::Instant>>,
    produced: tokio::sync::Notify,
}

impl Handler for Muter {
    async fn handle(&self, _: RequestFrame, _: fjord_net::principal::Caller) -> Reply {
        self.handled.lock().unwrap().push(std::time::Instant::now());
        self.produced.notify_one();
        let answer = Reply::Later(Box::pin(async {
            Reply::Respond(ResponseBody::Produce(Default::default()))
        }));
        Reply::Muting(self.mute, Box::new(answer))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mute_known_at_handling_holds_the_pipelined_requests_but_not_the_answer() {
    let h = Arc::new(Muter {
        mute: Duration::from_secs(1),
        handled: Mutex::default(),
        produced: tokio::sync::Notify::new(),
    });
    let c = connected(h.clone()).await;
    let produce = || RequestBody::Produce(Default::default());
    let (c1, c2) = (c.clone(), c.clone());
    let first = tokio::spawn(async move { c1.call(produce(), 9, WAIT).await });
    // The second is sent once the first was handled: it sits behind it on the connection.
    tokio::time::timeout(WAIT, h.produced.notified())
        .await
        .unwrap();
    let second = tokio::spawn(async move { c2.call(produce(), 9, WAIT).await });
    assert!(matches!(first.await.unwrap(), Ok(ResponseBody::Produce(_))));
    assert_eq!(
        h.handled.lock().unwrap().len(),
        1,
        "the first answer goes out during the mute, before the second request is handled"
    );
    assert!(matches!(
        second.await.unwrap(),
        Ok(ResponseBody::Produce(_))
    ));
    let handled = h.handled.lock().unwrap().clone();
    assert_eq!(handled.len(), 2);
    let gap = handled[1] - handled[0];
    assert!(
        gap >= h.mute,
        "the second Produce was handled {gap:?} after the first"
    );
}
