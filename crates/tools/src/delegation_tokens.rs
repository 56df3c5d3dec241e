//! `fjord kafka-delegation-tokens` (as `kafka-delegation-tokens.sh`): create, renew, expire
//! and describe delegation tokens (KIP-48) with Kafka's flags, checks and output. Tokens are
//! asked of the brokers only on an authenticated connection, so `--command-config` is
//! required, as in Kafka's tool. Times print as `yyyy-MM-dd'T'HH:mm` in UTC.

use crate::common::{self, ToolError};
use base64::Engine;
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_protocol::generated::{
    create_delegation_token_request::{CreatableRenewers, CreateDelegationTokenRequest},
    describe_delegation_token_request::{
        DescribeDelegationTokenOwner, DescribeDelegationTokenRequest,
    },
    expire_delegation_token_request::ExpireDelegationTokenRequest,
    renew_delegation_token_request::RenewDelegationTokenRequest,
};
use fjord_protocol::RequestBody;
use std::path::PathBuf;
use std::process::ExitCode;

/// `kafka-delegation-tokens` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// The server(s) to connect to.
    #[arg(long)]
    bootstrap_server: Option<String>,
    /// A property file containing configs to be passed to Admin Client.
    #[arg(long)]
    command_config: Option<PathBuf>,
    /// Create a new delegation token.
    #[arg(long)]
    create: bool,
    /// Renew a delegation token.
    #[arg(long)]
    renew: bool,
    /// Expire a delegation token.
    #[arg(long)]
    expire: bool,
    /// Describe delegation tokens.
    #[arg(long)]
    describe: bool,
    /// The maximum life of the token in ms (-1: the server's `delegation.token.max.lifetime.ms`).
    #[arg(long, allow_negative_numbers = true)]
    max_life_time_period: Option<i64>,
    /// A principal (`User:name`) that may renew the token; may be repeated.
    #[arg(long)]
    renewer_principal: Vec<String>,
    /// The token's owner when creating one for another user (needs CREATE_TOKENS on it), or
    /// an owner whose tokens to describe; may be repeated when describing.
    #[arg(long)]
    owner_principal: Vec<String>,
    /// The token's HMAC, in base64.
    #[arg(long)]
    hmac: Option<String>,
    /// How long to renew the token for, in ms.
    #[arg(long, allow_negative_numbers = true)]
    renew_time_period: Option<i64>,
    /// How long from now the token expires, in ms (negative: at once).
    #[arg(long, allow_negative_numbers = true)]
    expiry_time_period: Option<i64>,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-delegation-tokens", run_async(args))
}

fn missing(what: &str) -> ToolError {
    ToolError::Usage(format!("Missing required argument \"[{what}]\""))
}

/// `Type:name` as a (type, name) pair, as Kafka's `SecurityUtils.parseKafkaPrincipal`.
fn principal(text: &str) -> Result<(String, String), ToolError> {
    match text.trim().split_once(':') {
        Some((kind, name)) if !kind.is_empty() => Ok((kind.to_string(), name.to_string())),
        _ => Err(ToolError::Usage(format!(
            "expected a string in format principalType:principalName but got {}",
            text.trim()
        ))),
    }
}

/// A list of principals as Java prints one.
fn listed(principals: &[(String, String)]) -> String {
    let items: Vec<String> = principals.iter().map(|(k, n)| format!("{k}:{n}")).collect();
    format!("[{}]", items.join(", "))
}

fn hmac(args: &Args) -> Result<(String, Vec<u8>), ToolError> {
    let text = args.hmac.clone().ok_or_else(|| missing("hmac"))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| ToolError::Failed(format!("The HMAC is not base64: {e}")))?;
    Ok((text, bytes))
}

const HEADER: [&str; 8] = [
    "TOKENID",
    "HMAC",
    "OWNER",
    "REQUESTER",
    "RENEWERS",
    "ISSUEDATE",
    "EXPIRYDATE",
    "MAXDATE",
];

/// One line of Kafka's token table (`%-15s %-30s %-15s %-15s %-25s %-15s %-15s %-15s`).
fn row(cells: [&str; 8]) -> String {
    crate::table::Table::fixed(&[15, 30, 15, 15, 25, 15, 15, 15], " ")
        .pad_last()
        .line(&cells.map(String::from))
}

/// A token as a table row.
struct Token {
    id: String,
    hmac: Vec<u8>,
    owner: String,
    requester: String,
    renewers: Vec<(String, String)>,
    issue: i64,
    expiry: i64,
    max: i64,
}

/// Kafka's table: the header, then each token after a blank line.
fn print_tokens(tokens: &[Token]) {
    println!("{}", row(HEADER));
    for t in tokens {
        println!();
        let hmac = base64::engine::general_purpose::STANDARD.encode(&t.hmac);
        println!(
            "{}",
            row([
                &t.id,
                &hmac,
                &t.owner,
                &t.requester,
                &listed(&t.renewers),
                &common::minutes_utc(t.issue),
                &common::minutes_utc(t.expiry),
                &common::minutes_utc(t.max),
            ])
        );
    }
}

async fn run_async(args: &Args) -> Result<(), ToolError> {
    let actions = [args.create, args.renew, args.expire, args.describe];
    if actions.iter().filter(|a| **a).count() != 1 {
        return Err(ToolError::Usage(
            "Command must include exactly one action: --create, --renew, --expire or --describe"
                .into(),
        ));
    }
    if args.bootstrap_server.is_none() {
        return Err(missing("bootstrap-server"));
    }
    if args.command_config.is_none() {
        return Err(missing("command-config"));
    }
    if args.create && args.max_life_time_period.is_none() {
        return Err(missing("max-life-time-period"));
    }
    if (args.renew || args.expire) && args.hmac.is_none() {
        return Err(missing("hmac"));
    }
    if args.renew && args.renew_time_period.is_none() {
        return Err(missing("renew-time-period"));
    }
    if args.expire && args.expiry_time_period.is_none() {
        return Err(missing("expiry-time-period"));
    }
    let admin = common::admin(
        args.bootstrap_server.as_deref(),
        None,
        args.command_config.as_deref(),
    )?;
    if args.create {
        create(&admin, args).await
    } else if args.renew {
        let (text, bytes) = hmac(args)?;
        let period = args.renew_time_period.unwrap_or(-1);
        println!("Calling renew token operation with hmac :{text} , renew-time-period :{period}");
        let body = RequestBody::RenewDelegationToken(RenewDelegationTokenRequest {
            hmac: bytes.into(),
            renew_period_ms: period,
            ..Default::default()
        });
        let r = call(&admin, body, 1..=2).await?;
        let r = expect_response!(r, RenewDelegationToken).map_err(ToolError::from_server)?;
        AdminError::check(r.error_code, None).map_err(ToolError::from_server)?;
        println!(
            "Completed renew operation. New expiry date : {}",
            common::minutes_utc(r.expiry_timestamp_ms)
        );
        Ok(())
    } else if args.expire {
        let (text, bytes) = hmac(args)?;
        let period = args.expiry_time_period.unwrap_or(-1);
        println!("Calling expire token operation with hmac :{text} , expire-time-period :{period}");
        let body = RequestBody::ExpireDelegationToken(ExpireDelegationTokenRequest {
            hmac: bytes.into(),
            expiry_time_period_ms: period,
            ..Default::default()
        });
        let r = call(&admin, body, 1..=2).await?;
        let r = expect_response!(r, ExpireDelegationToken).map_err(ToolError::from_server)?;
        AdminError::check(r.error_code, None).map_err(ToolError::from_server)?;
        println!(
            "Completed expire operation. New expiry date : {}",
            common::minutes_utc(r.expiry_timestamp_ms)
        );
        Ok(())
    } else {
        describe(&admin, args).await
    }
}

/// Sends a token request to a broker (which forwards create, renew and expire to the
/// controller).
async fn call(
    admin: &Admin,
    body: RequestBody,
    versions: std::ops::RangeInclusive<i16>,
) -> Result<fjord_protocol::ResponseBody, ToolError> {
    admin
        .call_any(body, versions)
        .await
        .map_err(ToolError::from_server)
}

async fn create(admin: &Admin, args: &Args) -> Result<(), ToolError> {
    let renewers = args
        .renewer_principal
        .iter()
        .map(|p| principal(p))
        .collect::<Result<Vec<_>, _>>()?;
    let owner = args
        .owner_principal
        .first()
        .map(|p| principal(p))
        .transpose()?;
    let max = args.max_life_time_period.unwrap_or(-1);
    println!(
        "Calling create token operation with renewers :{} , max-life-time-period :{max}",
        listed(&renewers)
    );
    let body = RequestBody::CreateDelegationToken(CreateDelegationTokenRequest {
        owner_principal_type: owner.as_ref().map(|o| o.0.clone()),
        owner_principal_name: owner.as_ref().map(|o| o.1.clone()),
        renewers: renewers
            .iter()
            .map(|(kind, name)| CreatableRenewers {
                principal_type: kind.clone(),
                principal_name: name.clone(),
                ..Default::default()
            })
            .collect(),
        max_lifetime_ms: max,
        ..Default::default()
    });
    let r = call(admin, body, 1..=3).await?;
    let r = expect_response!(r, CreateDelegationToken).map_err(ToolError::from_server)?;
    AdminError::check(r.error_code, None).map_err(ToolError::from_server)?;
    println!("Created delegation token with tokenId : {}", r.token_id);
    println!();
    let requester = if r.token_requester_principal_name.is_empty() {
        format!("{}:{}", r.principal_type, r.principal_name)
    } else {
        format!(
            "{}:{}",
            r.token_requester_principal_type, r.token_requester_principal_name
        )
    };
    print_tokens(&[Token {
        id: r.token_id,
        hmac: r.hmac.to_vec(),
        owner: format!("{}:{}", r.principal_type, r.principal_name),
        requester,
        renewers,
        issue: r.issue_timestamp_ms,
        expiry: r.expiry_timestamp_ms,
        max: r.max_timestamp_ms,
    }]);
    Ok(())
}

async fn describe(admin: &Admin, args: &Args) -> Result<(), ToolError> {
    let owners = args
        .owner_principal
        .iter()
        .map(|p| principal(p))
        .collect::<Result<Vec<_>, _>>()?;
    if owners.is_empty() {
        println!("Calling describe token operation for current user.");
    } else {
        println!(
            "Calling describe token operation for owners: {}",
            listed(&owners)
        );
    }
    // As Kafka's tool: the owners given, none when none is (the brokers then answer none).
    let body = RequestBody::DescribeDelegationToken(DescribeDelegationTokenRequest {
        owners: Some(
            owners
                .iter()
                .map(|(kind, name)| DescribeDelegationTokenOwner {
                    principal_type: kind.clone(),
                    principal_name: name.clone(),
                    ..Default::default()
                })
                .collect(),
        ),
        ..Default::default()
    });
    let r = call(admin, body, 1..=3).await?;
    let r = expect_response!(r, DescribeDelegationToken).map_err(ToolError::from_server)?;
    AdminError::check(r.error_code, None).map_err(ToolError::from_server)?;
    println!("Total number of tokens : {}", r.tokens.len());
    let tokens: Vec<Token> = r
        .tokens
        .into_iter()
        .map(|t| Token {
            owner: format!("{}:{}", t.principal_type, t.principal_name),
            requester: if t.token_requester_principal_name.is_empty() {
                format!("{}:{}", t.principal_type, t.principal_name)
            } else {
                format!(
                    "{}:{}",
                    t.token_requester_principal_type, t.token_requester_principal_name
                )
            },
            renewers: t
                .renewers
                .iter()
                .map(|x| (x.principal_type.clone(), x.principal_name.clone()))
                .collect(),
            id: t.token_id,
            hmac: t.hmac.to_vec(),
            issue: t.issue_timestamp,
            expiry: t.expiry_timestamp,
            max: t.max_timestamp,
        })
        .collect();
    print_tokens(&tokens);
    Ok(())
}
