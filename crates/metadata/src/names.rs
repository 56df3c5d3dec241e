//! Kafka's rules for topic names, shared by the controller (which refuses bad names) and
//! brokers (which decide what Metadata may auto-create).

/// The longest topic name (Kafka's 249).
pub const MAX_TOPIC_NAME_LEN: usize = 249;

/// Kafka's topic name rules.
pub fn validate_topic_name(name: &str) -> Result<(), crate::MetadataError> {
    check_name(name).map_err(crate::MetadataError::InvalidTopicName)
}

fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("Topic name is illegal, it can't be empty".into());
    }
    if name == "." || name == ".." {
        return Err("Topic name cannot be \".\" or \"..\"".into());
    }
    if name.len() > MAX_TOPIC_NAME_LEN {
        return Err(format!(
            "Topic name is illegal, it can't be longer than {MAX_TOPIC_NAME_LEN} characters, topic name: {name}"
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')
    {
        return Err(format!(
            "Topic name is invalid: '{name}' contains one or more characters other than ASCII \
             alphanumerics, '.', '_' and '-'"
        ));
    }
    Ok(())
}
