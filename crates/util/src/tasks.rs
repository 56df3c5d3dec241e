//! Tasks a node cannot live without: their end or panic is reported on one channel, and the
//! node stops with that reason and a non-zero exit.

/// Where a task the node cannot live without reports that it ended or panicked.
#[derive(Clone)]
pub struct Fatal(pub tokio::sync::mpsc::UnboundedSender<String>);

impl Fatal {
    /// Runs `task`; its end (or panic) is fatal to the node.
    pub fn spawn<F>(&self, what: &'static str, task: F)
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        let tx = self.0.clone();
        let handle = tokio::spawn(task);
        tokio::spawn(async move {
            let why = match handle.await {
                Ok(_) => format!("the {what} stopped"),
                Err(e) if e.is_panic() => format!("the {what} panicked: {}", panic_text(e)),
                Err(e) => format!("the {what} was cancelled: {e}"),
            };
            let _ = tx.send(why);
        });
    }

    /// Reports `why` as fatal (for a task that ends with a reason of its own).
    pub fn report(&self, why: String) {
        let _ = self.0.send(why);
    }

    /// Runs `task`, whose end is fatal with the reason it returns (`"the {what} stopped: {why}"`),
    /// and whose panic is fatal too.
    pub fn spawn_with_reason<F, E>(&self, what: &'static str, task: F)
    where
        F: std::future::Future<Output = E> + Send + 'static,
        E: std::fmt::Display + Send + 'static,
    {
        let tx = self.0.clone();
        self.spawn(what, async move {
            let why = task.await;
            let _ = tx.send(format!("the {what} stopped: {why}"));
        });
    }
}

fn panic_text(e: tokio::task::JoinError) -> String {
    let p = e.into_panic();
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_task_the_node_needs_that_ends_or_panics_is_reported_fatal() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let fatal = Fatal(tx);
        fatal.spawn("image loader", async {});
        assert_eq!(rx.recv().await.as_deref(), Some("the image loader stopped"));
        fatal.spawn("active controller", async { panic!("boom") });
        assert_eq!(
            rx.recv().await.as_deref(),
            Some("the active controller panicked: boom")
        );
    }
}
