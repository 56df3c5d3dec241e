//! Responses that carry only an error, for requests refused as a whole.

use fjord_protocol::generated::*;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};

/// The same kind of response as `like`, carrying `code` and `message` at the top level where
/// the response has one.
pub fn error_response_for(like: &ResponseBody, code: ErrorCode, message: &str) -> ResponseBody {
    let c = code.code();
    let m = Some(message.to_string());
    match like {
        ResponseBody::BrokerHeartbeat(_) => {
            ResponseBody::BrokerHeartbeat(broker_heartbeat_response::BrokerHeartbeatResponse {
                error_code: c,
                is_fenced: true,
                ..Default::default()
            })
        }
        ResponseBody::BrokerRegistration(_) => ResponseBody::BrokerRegistration(
            broker_registration_response::BrokerRegistrationResponse {
                error_code: c,
                broker_epoch: -1,
                ..Default::default()
            },
        ),
        ResponseBody::UnregisterController(_) => ResponseBody::UnregisterController(
            unregister_controller_response::UnregisterControllerResponse {
                error_code: c,
                error_message: m,
                ..Default::default()
            },
        ),
        ResponseBody::UnregisterBroker(_) => {
            ResponseBody::UnregisterBroker(unregister_broker_response::UnregisterBrokerResponse {
                error_code: c,
                error_message: m,
                ..Default::default()
            })
        }
        ResponseBody::ControllerRegistration(_) => ResponseBody::ControllerRegistration(
            controller_registration_response::ControllerRegistrationResponse {
                error_code: c,
                error_message: m,
                ..Default::default()
            },
        ),
        ResponseBody::UpdateFeatures(_) => {
            ResponseBody::UpdateFeatures(update_features_response::UpdateFeaturesResponse {
                error_code: c,
                error_message: m,
                ..Default::default()
            })
        }
        ResponseBody::AllocateProducerIds(_) => ResponseBody::AllocateProducerIds(
            allocate_producer_ids_response::AllocateProducerIdsResponse {
                error_code: c,
                ..Default::default()
            },
        ),
        ResponseBody::ElectLeaders(_) => {
            ResponseBody::ElectLeaders(elect_leaders_response::ElectLeadersResponse {
                error_code: c,
                ..Default::default()
            })
        }
        ResponseBody::AlterPartition(_) => {
            ResponseBody::AlterPartition(alter_partition_response::AlterPartitionResponse {
                error_code: c,
                ..Default::default()
            })
        }
        ResponseBody::CreateTopics(r) => {
            let mut r = r.clone();
            for t in &mut r.topics {
                t.error_code = c;
                t.error_message = m.clone();
            }
            ResponseBody::CreateTopics(r)
        }
        ResponseBody::DeleteTopics(r) => {
            let mut r = r.clone();
            for t in &mut r.responses {
                t.error_code = c;
                t.error_message = m.clone();
            }
            ResponseBody::DeleteTopics(r)
        }
        ResponseBody::CreatePartitions(r) => {
            let mut r = r.clone();
            for t in &mut r.results {
                t.error_code = c;
                t.error_message = m.clone();
            }
            ResponseBody::CreatePartitions(r)
        }
        ResponseBody::IncrementalAlterConfigs(r) => {
            let mut r = r.clone();
            for t in &mut r.responses {
                t.error_code = c;
                t.error_message = m.clone();
            }
            ResponseBody::IncrementalAlterConfigs(r)
        }
        ResponseBody::AlterConfigs(r) => {
            let mut r = r.clone();
            for t in &mut r.responses {
                t.error_code = c;
                t.error_message = m.clone();
            }
            ResponseBody::AlterConfigs(r)
        }
        other => other.clone(),
    }
}

/// The answer to a request the controller does not handle.
pub fn unsupported(request: &RequestBody) -> ResponseBody {
    let like = match request {
        RequestBody::BrokerHeartbeat(_) => ResponseBody::BrokerHeartbeat(Default::default()),
        _ => ResponseBody::UnregisterController(Default::default()),
    };
    error_response_for(
        &like,
        ErrorCode::UnsupportedVersion,
        &format!("{:?} is not handled by the controller", request.api_key()),
    )
}
