//! When a broker may serve clients, as Kafka's broker startup decides it.

/// Waits until this broker may serve clients, as Kafka's broker startup does: its metadata
/// image has caught up with the quorum's high watermark, and the image shows this process
/// registered and unfenced (so Metadata lists it and names a controller). Logs what it waits
/// for every few seconds.
pub(super) async fn ready_to_serve(
    node_id: i32,
    incarnation: fjord_protocol::Uuid,
    view: &mut tokio::sync::watch::Receiver<fjord_broker::View>,
    info: &mut tokio::sync::watch::Receiver<fjord_kraft::driver::QuorumInfo>,
) -> Result<(), String> {
    let started = tokio::time::Instant::now();
    let mut said = started;
    loop {
        let waiting_for = {
            let v = view.borrow_and_update();
            let i = info.borrow_and_update();
            let me = v.image.cluster.brokers.get(&node_id);
            if i.high_watermark <= 0 || v.applied_up_to < i.high_watermark {
                Some("the metadata log to catch up")
            } else if me.is_none_or(|b| b.incarnation_id != incarnation) {
                Some("this broker's registration")
            } else if me.is_some_and(|b| b.fenced) {
                Some("the controller to unfence this broker")
            } else {
                None
            }
        };
        let Some(what) = waiting_for else {
            tracing::info!(
                waited_ms = started.elapsed().as_millis() as u64,
                "broker ready: metadata caught up, registered and unfenced"
            );
            return Ok(());
        };
        if said.elapsed() >= std::time::Duration::from_secs(5) {
            tracing::info!("the broker listener opens once ready; waiting for {what}");
            said = tokio::time::Instant::now();
        }
        tokio::select! {
            r = view.changed() => r.map_err(|_| "the metadata image loader stopped")?,
            r = info.changed() => r.map_err(|_| "the raft driver stopped")?,
            _ = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
        }
    }
}
