//! The ACL decision as the request layer asks it ([`fjord_protocol::acl::Acls`]): the image's
//! ACLs under the authorizer's settings, and the image's topic names. What each request needs
//! is the request layer's (`fjord_net::authorize`); this module only decides.

use crate::acls::{AclOperation, AuthorizerSettings, ResourceType};
use crate::MetadataImage;
use fjord_protocol::acl::Acls;
use fjord_protocol::Uuid;
use std::sync::Arc;

/// An image's ACLs under the authorizer's settings, as of that image.
#[derive(Debug, Clone)]
pub struct ImageAcls {
    settings: Arc<AuthorizerSettings>,
    image: MetadataImage,
}

impl ImageAcls {
    /// The ACLs of `image` under `settings`.
    pub fn new(settings: Arc<AuthorizerSettings>, image: MetadataImage) -> ImageAcls {
        ImageAcls { settings, image }
    }
}

impl Acls for ImageAcls {
    fn allows(
        &self,
        principal: &str,
        host: &str,
        op: AclOperation,
        kind: ResourceType,
        name: &str,
    ) -> bool {
        self.image
            .acls
            .authorize(&self.settings, principal, host, op, kind, name)
            .allowed()
    }

    fn any_allowed(
        &self,
        principal: &str,
        host: &str,
        op: AclOperation,
        kind: ResourceType,
    ) -> bool {
        self.image
            .acls
            .any_allowed(&self.settings, principal, host, op, kind)
    }

    fn topic_name(&self, id: &Uuid) -> Option<String> {
        self.image.topics.by_id.get(id).map(|t| t.name.clone())
    }
}
