//! InitProducerId for idempotent producers: producer ids come from blocks the controller
//! hands out (AllocateProducerIds, recorded as `ProducerIdsRecord`, so no id is ever given
//! twice across the cluster); each new producer gets the next id with epoch 0, as Kafka's
//! coordinator does for a producer without a transactional id. Transactions are not served
//! yet: a transactional id is refused.

use crate::cluster::controller_client::ControllerClient;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    allocate_producer_ids_request::AllocateProducerIdsRequest,
    init_producer_id_request::InitProducerIdRequest,
    init_producer_id_response::InitProducerIdResponse,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::sync::Arc;

/// The ids of the current block not yet given out: `next..end`.
#[derive(Debug, Default)]
struct Block {
    next: i64,
    end: i64,
}

/// This broker's source of producer ids.
#[derive(Debug)]
pub struct ProducerIds {
    node_id: i32,
    controller: Arc<ControllerClient>,
    block: tokio::sync::Mutex<Block>,
}

impl ProducerIds {
    /// A source for broker `node_id`, asking `controller` for blocks.
    pub fn new(node_id: i32, controller: Arc<ControllerClient>) -> ProducerIds {
        ProducerIds {
            node_id,
            controller,
            block: tokio::sync::Mutex::new(Block::default()),
        }
    }

    /// The next producer id, asking the controller for a new block when this one is used up
    /// (COORDINATOR_LOAD_IN_PROGRESS, which clients retry, when that fails).
    pub async fn next(&self, image: &MetadataImage) -> Result<i64, ErrorCode> {
        let mut b = self.block.lock().await;
        if b.next >= b.end {
            let epoch = image
                .cluster
                .brokers
                .get(&self.node_id)
                .map(|r| r.epoch)
                .ok_or(ErrorCode::CoordinatorLoadInProgress)?;
            let body = RequestBody::AllocateProducerIds(AllocateProducerIdsRequest {
                broker_id: self.node_id,
                broker_epoch: epoch,
                ..Default::default()
            });
            match self.controller.call(body, 0).await {
                Ok(ResponseBody::AllocateProducerIds(r))
                    if r.error_code == 0 && r.producer_id_len > 0 =>
                {
                    b.next = r.producer_id_start;
                    b.end = r.producer_id_start + i64::from(r.producer_id_len);
                }
                Ok(other) => {
                    tracing::warn!("allocating producer ids: {other:?}");
                    return Err(ErrorCode::CoordinatorLoadInProgress);
                }
                Err(e) => {
                    tracing::warn!("allocating producer ids: {e}");
                    return Err(ErrorCode::CoordinatorLoadInProgress);
                }
            }
        }
        let id = b.next;
        b.next += 1;
        Ok(id)
    }

    /// InitProducerId: a new id with epoch 0 for an idempotent producer (also when it asks to
    /// bump the epoch of its old id, as Kafka does without a transactional id).
    pub async fn init_producer_id(
        &self,
        image: &MetadataImage,
        r: &InitProducerIdRequest,
    ) -> InitProducerIdResponse {
        let fail = |code: ErrorCode| InitProducerIdResponse {
            error_code: code.code(),
            producer_id: -1,
            producer_epoch: -1,
            ..Default::default()
        };
        if r.transactional_id.is_some() {
            return fail(ErrorCode::TransactionalIdAuthorizationFailed);
        }
        match self.next(image).await {
            Ok(id) => InitProducerIdResponse {
                producer_id: id,
                producer_epoch: 0,
                ..Default::default()
            },
            Err(code) => fail(code),
        }
    }
}
