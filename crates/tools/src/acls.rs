//! `fjord kafka-acls` (as `kafka-acls.sh`): add, remove and list ACLs (CreateAcls, DeleteAcls,
//! DescribeAcls) with Kafka's flags, its `--producer` / `--consumer` conveniences and its
//! output (`Adding ACLs for resource ...`, `Current ACLs for resource ...`).

use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_metadata::acls::{AclOperation, PatternType, Permission, ResourceType};
use fjord_protocol::generated::{
    create_acls_request::{AclCreation, CreateAclsRequest},
    delete_acls_request::{DeleteAclsFilter, DeleteAclsRequest},
    describe_acls_request::DescribeAclsRequest,
};
use fjord_protocol::RequestBody;
use std::collections::BTreeMap;
use std::process::ExitCode;

/// The cluster resource's name.
const CLUSTER: &str = "kafka-cluster";

/// `kafka-acls` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::Connection,
    /// Add ACLs.
    #[arg(long)]
    add: bool,
    /// Remove ACLs.
    #[arg(long)]
    remove: bool,
    /// List ACLs for the given resource (all resources without one).
    #[arg(long)]
    list: bool,
    /// Topic(s) the ACLs are for (`*` for all topics).
    #[arg(long)]
    topic: Vec<String>,
    /// Consumer group(s) the ACLs are for (`*` for all groups).
    #[arg(long)]
    group: Vec<String>,
    /// The ACLs are for the cluster.
    #[arg(long)]
    cluster: bool,
    /// Transactional id(s) the ACLs are for.
    #[arg(long)]
    transactional_id: Vec<String>,
    /// User principal(s) the ACLs are for (the USER resource).
    #[arg(long)]
    user_principal: Vec<String>,
    /// LITERAL (default), PREFIXED; for --list and --remove also ANY and MATCH.
    #[arg(long)]
    resource_pattern_type: Option<String>,
    /// Principal allowed (Type:name); may be repeated.
    #[arg(long)]
    allow_principal: Vec<String>,
    /// Principal denied (Type:name); may be repeated.
    #[arg(long)]
    deny_principal: Vec<String>,
    /// Host allowed (default * when --allow-principal is given).
    #[arg(long)]
    allow_host: Vec<String>,
    /// Host denied (default * when --deny-principal is given).
    #[arg(long)]
    deny_host: Vec<String>,
    /// Operation(s): Read, Write, Create, Delete, Alter, Describe, ClusterAction,
    /// AlterConfigs, DescribeConfigs, IdempotentWrite, All (default All).
    #[arg(long)]
    operation: Vec<String>,
    /// With --list: only the ACLs of this principal.
    #[arg(long)]
    principal: Vec<String>,
    /// Producer ACLs: WRITE, DESCRIBE and CREATE on the topics.
    #[arg(long)]
    producer: bool,
    /// Consumer ACLs: READ and DESCRIBE on the topics, READ on the groups.
    #[arg(long)]
    consumer: bool,
    /// With --producer: IDEMPOTENT_WRITE on the cluster too.
    #[arg(long)]
    idempotent: bool,
    /// Remove without asking.
    #[arg(long)]
    force: bool,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    // Kafka 4.4's AclCommand prints a failure to stdout behind this prefix.
    common::run::<Args, _>("kafka-acls", async {
        run_async(args).await.map_err(|e| match e {
            ToolError::Failed(m) => {
                ToolError::FailedStdout(format!("Error while executing ACL command: {m}"))
            }
            e => e,
        })
    })
}

/// A resource pattern: type, name, pattern type.
type Resource = (ResourceType, String, PatternType);
/// An ACL entry of a resource: principal, host, operation, permission.
type Entry = (String, String, AclOperation, Permission);

fn resource_text((t, name, p): &Resource) -> String {
    format!(
        "ResourcePattern(resourceType={}, name={name}, patternType={})",
        t.name(),
        p.name()
    )
}

fn entry_text((principal, host, op, perm): &Entry) -> String {
    format!(
        "(principal={principal}, host={host}, operation={}, permissionType={})",
        op.name(),
        perm.name()
    )
}

/// Prints Kafka's block for a resource's ACLs.
fn print_block(header: &str, resource: &Resource, entries: &[Entry]) {
    println!("{header} for resource `{}`: ", resource_text(resource));
    for e in entries {
        println!(" \t{} ", entry_text(e));
    }
    println!();
}

/// Kafka's operation names (`Read`, `ClusterAction`, or upper case).
fn operation(name: &str) -> Result<AclOperation, ToolError> {
    let upper: String = name
        .chars()
        .enumerate()
        .flat_map(|(i, c)| {
            let sep = (i > 0 && c.is_uppercase() && !name.contains('_')).then_some('_');
            sep.into_iter().chain(c.to_uppercase())
        })
        .collect();
    AclOperation::parse(&upper)
        .filter(|o| !matches!(o, AclOperation::Any | AclOperation::Unknown))
        .ok_or_else(|| ToolError::Usage(format!("Invalid operation {name}")))
}

fn pattern_type(a: &Args, filter: bool) -> Result<PatternType, ToolError> {
    let Some(p) = &a.resource_pattern_type else {
        return Ok(if filter {
            PatternType::Any
        } else {
            PatternType::Literal
        });
    };
    let parsed = PatternType::parse(&p.to_ascii_uppercase())
        .filter(|p| !matches!(p, PatternType::Unknown))
        .ok_or_else(|| ToolError::Usage(format!("Invalid resource pattern type {p}")))?;
    if !filter && !matches!(parsed, PatternType::Literal | PatternType::Prefixed) {
        return Err(ToolError::Usage(format!(
            "A '--resource-pattern-type' value of '{p}' is not valid when adding acls."
        )));
    }
    Ok(parsed)
}

/// The resources the flags name.
fn resources(a: &Args, pattern: PatternType) -> Vec<Resource> {
    let mut out: Vec<Resource> = Vec::new();
    out.extend(
        a.topic
            .iter()
            .map(|t| (ResourceType::Topic, t.clone(), pattern)),
    );
    out.extend(
        a.group
            .iter()
            .map(|g| (ResourceType::Group, g.clone(), pattern)),
    );
    out.extend(
        a.transactional_id
            .iter()
            .map(|t| (ResourceType::TransactionalId, t.clone(), pattern)),
    );
    out.extend(
        a.user_principal
            .iter()
            .map(|u| (ResourceType::User, u.clone(), pattern)),
    );
    if a.cluster || (a.producer && a.idempotent) {
        out.push((ResourceType::Cluster, CLUSTER.into(), pattern));
    }
    out
}

/// The entries to add or remove for `resource`.
fn entries(a: &Args, resource: &Resource) -> Result<Vec<Entry>, ToolError> {
    let ops: Vec<AclOperation> = if a.producer || a.consumer {
        let mut ops = Vec::new();
        match resource.0 {
            ResourceType::Topic if a.producer => ops.extend([
                AclOperation::Write,
                AclOperation::Describe,
                AclOperation::Create,
            ]),
            ResourceType::Cluster if a.producer && a.idempotent => {
                ops.push(AclOperation::IdempotentWrite)
            }
            _ => {}
        }
        match resource.0 {
            ResourceType::Topic if a.consumer => {
                ops.extend([AclOperation::Read, AclOperation::Describe])
            }
            ResourceType::Group if a.consumer => ops.push(AclOperation::Read),
            _ => {}
        }
        ops
    } else if a.operation.is_empty() {
        vec![AclOperation::All]
    } else {
        a.operation
            .iter()
            .map(|o| operation(o))
            .collect::<Result<_, _>>()?
    };
    let hosts = |given: &[String]| -> Vec<String> {
        if given.is_empty() {
            vec!["*".into()]
        } else {
            given.to_vec()
        }
    };
    let mut out = Vec::new();
    for (principals, hosts, perm) in [
        (&a.allow_principal, hosts(&a.allow_host), Permission::Allow),
        (&a.deny_principal, hosts(&a.deny_host), Permission::Deny),
    ] {
        for p in principals {
            if !p.contains(':') {
                return Err(ToolError::Usage(format!(
                    "Could not parse principal from `{p}` (expected Type:name, such as User:alice)"
                )));
            }
            for h in &hosts {
                for op in &ops {
                    out.push((p.clone(), h.clone(), *op, perm));
                }
            }
        }
    }
    Ok(out)
}

/// Every ACL a filter selects, grouped by resource.
async fn describe(
    admin: &Admin,
    filter: &DescribeAclsRequest,
) -> Result<BTreeMap<(i8, String, i8), Vec<Entry>>, ToolError> {
    let r = admin
        .retry(|| async {
            let r = admin
                .call_any(RequestBody::DescribeAcls(filter.clone()), 1..=3)
                .await?;
            let r = expect_response!(r, DescribeAcls)?;
            AdminError::check(r.error_code, r.error_message.as_deref()).map(|()| r)
        })
        .await
        .map_err(ToolError::from_server)?;
    let mut out = BTreeMap::new();
    for res in r.resources {
        let entries: Vec<Entry> = res
            .acls
            .iter()
            .map(|a| {
                (
                    a.principal.clone(),
                    a.host.clone(),
                    AclOperation::from_code(a.operation).unwrap_or(AclOperation::Unknown),
                    Permission::from_code(a.permission_type).unwrap_or(Permission::Unknown),
                )
            })
            .collect();
        out.insert(
            (res.resource_type, res.resource_name, res.pattern_type),
            entries,
        );
    }
    Ok(out)
}

fn filter_of(resource: Option<&Resource>, principal: Option<&str>) -> DescribeAclsRequest {
    DescribeAclsRequest {
        resource_type_filter: resource.map_or(ResourceType::Any, |r| r.0).code(),
        resource_name_filter: resource.map(|r| r.1.clone()),
        pattern_type_filter: resource.map_or(PatternType::Any, |r| r.2).code(),
        principal_filter: principal.map(str::to_string),
        host_filter: None,
        operation: AclOperation::Any.code(),
        permission_type: Permission::Any.code(),
        ..Default::default()
    }
}

fn grouped_resource((t, name, p): &(i8, String, i8)) -> Resource {
    (
        ResourceType::from_code(*t).unwrap_or(ResourceType::Unknown),
        name.clone(),
        PatternType::from_code(*p).unwrap_or(PatternType::Unknown),
    )
}

async fn list(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let pattern = pattern_type(a, true)?;
    let named = resources(a, pattern);
    let principals: Vec<Option<&str>> = if a.principal.is_empty() {
        vec![None]
    } else {
        a.principal.iter().map(|p| Some(p.as_str())).collect()
    };
    let targets: Vec<Option<&Resource>> = if named.is_empty() {
        vec![None]
    } else {
        named.iter().map(Some).collect()
    };
    for principal in &principals {
        if let Some(p) = principal {
            println!("ACLs for principal `{p}`");
        }
        for target in &targets {
            for (res, entries) in describe(admin, &filter_of(*target, *principal)).await? {
                print_block("Current ACLs", &grouped_resource(&res), &entries);
            }
        }
    }
    Ok(())
}

async fn current(admin: &Admin, resource: &Resource) -> Result<(), ToolError> {
    let filter = filter_of(Some(resource), None);
    let found = describe(admin, &filter).await?;
    let entries: Vec<Entry> = found.into_values().flatten().collect();
    print_block("Current ACLs", resource, &entries);
    Ok(())
}

async fn add(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let pattern = pattern_type(a, false)?;
    let targets = resources(a, pattern);
    if targets.is_empty() {
        return Err(ToolError::Usage(
            "You must specify one of: --topic, --cluster, --group, --transactional-id, --user-principal when using --add".into(),
        ));
    }
    if a.allow_principal.is_empty() && a.deny_principal.is_empty() {
        return Err(ToolError::Usage(
            "You must specify one of: --allow-principal, --deny-principal when trying to add ACLs."
                .into(),
        ));
    }
    for resource in &targets {
        let entries = entries(a, resource)?;
        if entries.is_empty() {
            continue;
        }
        print_block("Adding ACLs", resource, &entries);
        let body = RequestBody::CreateAcls(CreateAclsRequest {
            creations: entries
                .iter()
                .map(|(principal, host, op, perm)| AclCreation {
                    resource_type: resource.0.code(),
                    resource_name: resource.1.clone(),
                    resource_pattern_type: resource.2.code(),
                    principal: principal.clone(),
                    host: host.clone(),
                    operation: op.code(),
                    permission_type: perm.code(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        });
        let r = admin
            .retry(|| async {
                let r = admin.call_controller(body.clone(), 1..=3).await?;
                expect_response!(r, CreateAcls)
            })
            .await
            .map_err(ToolError::from_server)?;
        for result in &r.results {
            AdminError::check(result.error_code, result.error_message.as_deref())
                .map_err(ToolError::from_server)?;
        }
        wait_until_listed(admin, resource, entries.len()).await?;
        current(admin, resource).await?;
    }
    Ok(())
}

/// Waits until the broker answering DescribeAcls has the new ACLs (they commit on the
/// controller first), so the listing after an add shows them.
async fn wait_until_listed(
    admin: &Admin,
    resource: &Resource,
    at_least: usize,
) -> Result<(), ToolError> {
    let filter = filter_of(Some(resource), None);
    admin
        .retry(|| async {
            let r = admin
                .call_any(RequestBody::DescribeAcls(filter.clone()), 1..=3)
                .await?;
            let r = expect_response!(r, DescribeAcls)?;
            let n: usize = r.resources.iter().map(|r| r.acls.len()).sum();
            if n >= at_least {
                Ok(())
            } else {
                Err(AdminError::Kafka {
                    code: fjord_protocol::ErrorCode::RequestTimedOut,
                    message: "the new ACLs are not listed yet".into(),
                })
            }
        })
        .await
        .map_err(ToolError::from_server)
}

async fn remove(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let pattern = pattern_type(a, true)?;
    let targets = resources(a, pattern);
    if targets.is_empty() {
        return Err(ToolError::Usage(
            "You must specify one of: --topic, --cluster, --group, --transactional-id, --user-principal when using --remove".into(),
        ));
    }
    for resource in &targets {
        let entries = entries(a, resource)?;
        let whole = a.allow_principal.is_empty() && a.deny_principal.is_empty();
        if !a.force {
            let what = if whole {
                format!("all ACLs for resource `{}`", resource_text(resource))
            } else {
                format!(
                    "ACLs: \n \t{}\n from resource `{}`",
                    entries
                        .iter()
                        .map(entry_text)
                        .collect::<Vec<_>>()
                        .join("\n \t"),
                    resource_text(resource)
                )
            };
            println!("Are you sure you want to delete {what}? (y/n)");
            let mut answer = String::new();
            std::io::stdin()
                .read_line(&mut answer)
                .map_err(|e| ToolError::Failed(e.to_string()))?;
            if !answer.trim().eq_ignore_ascii_case("y") {
                continue;
            }
        }
        let filter = |e: Option<&Entry>| DeleteAclsFilter {
            resource_type_filter: resource.0.code(),
            resource_name_filter: Some(resource.1.clone()),
            pattern_type_filter: resource.2.code(),
            principal_filter: e.map(|e| e.0.clone()),
            host_filter: e.map(|e| e.1.clone()),
            operation: e.map_or(AclOperation::Any, |e| e.2).code(),
            permission_type: e.map_or(Permission::Any, |e| e.3).code(),
            ..Default::default()
        };
        let filters: Vec<DeleteAclsFilter> = if whole {
            vec![filter(None)]
        } else {
            entries.iter().map(|e| filter(Some(e))).collect()
        };
        if !whole {
            print_block("Removing ACLs", resource, &entries);
        }
        let body = RequestBody::DeleteAcls(DeleteAclsRequest {
            filters,
            ..Default::default()
        });
        let r = admin
            .retry(|| async {
                let r = admin.call_controller(body.clone(), 1..=3).await?;
                expect_response!(r, DeleteAcls)
            })
            .await
            .map_err(ToolError::from_server)?;
        for result in &r.filter_results {
            AdminError::check(result.error_code, result.error_message.as_deref())
                .map_err(ToolError::from_server)?;
        }
        current(admin, resource).await?;
    }
    Ok(())
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    common::exactly_one(&[(a.add, "--add"), (a.remove, "--remove"), (a.list, "--list")])?;
    if (a.producer || a.consumer) && !a.add && !a.remove {
        return Err(ToolError::Usage(
            "With --producer or --consumer you must specify one of --add or --remove".into(),
        ));
    }
    if a.consumer && a.group.is_empty() && a.add {
        return Err(ToolError::Usage(
            "With --consumer you must specify a --group".into(),
        ));
    }
    let admin = a.connection.admin()?;
    if a.list {
        list(&admin, a).await
    } else if a.add {
        add(&admin, a).await
    } else {
        remove(&admin, a).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_parse_as_kafka_writes_them() {
        assert_eq!(operation("Read").unwrap(), AclOperation::Read);
        assert_eq!(
            operation("ClusterAction").unwrap(),
            AclOperation::ClusterAction
        );
        assert_eq!(
            operation("CLUSTER_ACTION").unwrap(),
            AclOperation::ClusterAction
        );
        assert_eq!(
            operation("IdempotentWrite").unwrap(),
            AclOperation::IdempotentWrite
        );
        assert!(operation("Fly").is_err());
        assert!(operation("Any").is_err());
        assert_eq!(
            entry_text(&(
                "User:a".into(),
                "*".into(),
                AclOperation::Write,
                Permission::Allow
            )),
            "(principal=User:a, host=*, operation=WRITE, permissionType=ALLOW)"
        );
        assert_eq!(
            resource_text(&(ResourceType::Topic, "t".into(), PatternType::Literal)),
            "ResourcePattern(resourceType=TOPIC, name=t, patternType=LITERAL)"
        );
    }
}
