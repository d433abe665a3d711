//! What cctv makes of transcript files, as JSON, without a browser.
//!
//! cargo run --release --no-default-features --bin cctv-inspect -- FILE_OR_DIR... [--bench | --drift]
//! cargo run --release --no-default-features --bin cctv-inspect -- --markdown [--thinking]
//!     [--no-output] [--sub-agents] [--events] [--keep-secrets] FILE_OR_DIR...

use std::path::{Path, PathBuf};
use std::time::Instant;

use cctv::export::share::{self, ShareOptions};
use cctv::export::to_markdown::MarkdownOptions;
use cctv::model::{Census, Transcript};
use cctv::normalize::beside::beside;
use cctv::normalize::{self, AgentKind, AgentLink, Input, ItemKind, LinkEvidence, Thread, Workspace};
use serde_json::{json, Value};

fn main() {
    let mut bench = false;
    let mut drift = false;
    let mut markdown = None;
    let mut options = MarkdownOptions::default();
    let mut keep_secrets = false;
    let mut paths = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--bench" => bench = true,
            "--drift" => drift = true,
            "--markdown" => markdown = Some(()),
            "--thinking" => options.thinking = true,
            "--no-output" => options.tool_output = false,
            "--sub-agents" => options.sub_agents = true,
            "--events" => options.system_events = true,
            "--keep-secrets" => keep_secrets = true,
            "-h" | "--help" => {
                eprintln!("usage: cctv-inspect FILE_OR_DIR... [--bench | --drift | --markdown [options]]");
                eprintln!("  --drift     what cctv did not recognise in the files (for a bug report)");
                eprintln!("  --markdown  each session as Markdown, for an issue or a pull request; with");
                eprintln!("              --thinking, --no-output (calls without what they returned),");
                eprintln!("              --sub-agents (their conversations, folded), --events;");
                eprintln!("              secrets and personal details are masked (each said on");
                eprintln!("              stderr) unless --keep-secrets");
                return;
            }
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    if paths.is_empty() {
        eprintln!("usage: cctv-inspect FILE_OR_DIR... [--bench | --drift]");
        std::process::exit(2);
    }
    let inputs = match read_inputs(&paths) {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("cctv-inspect: {e}");
            std::process::exit(1);
        }
    };
    if markdown.is_some() {
        // What is certainly a secret or a personal detail is masked unless the caller keeps it.
        let keep = if keep_secrets { vec!["*".to_owned()] } else { Vec::new() };
        let options = ShareOptions { markdown: options, ..ShareOptions::default() };
        let options = ShareOptions { keep, ..options };
        match share::markdown(inputs, &options) {
            Ok(shared) => {
                let chosen = share::masked(&shared.findings, &options);
                for f in &shared.findings {
                    let what = match (chosen.contains(&f), f.certain) {
                        (true, _) => "masked",
                        (false, true) => "kept (--keep-secrets)",
                        (false, false) => "kept (a candidate: check it)",
                    };
                    let rule = f.rule.as_ref().map_or(String::new(), |r| format!("{r}: "));
                    eprintln!(
                        "{what}: {rule}{} ({}x, first in {} line {})",
                        f.label, f.count, f.file, f.line
                    );
                }
                print!("{}", shared.text);
            }
            Err(e) => {
                eprintln!("cctv-inspect: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let report = if bench {
        bench_report(inputs)
    } else if drift {
        serde_json::to_value(cctv::insight::drift::drift(&normalize::normalize(inputs)))
            .expect("the report serializes")
    } else {
        inspect(&normalize::normalize(inputs))
    };
    println!("{}", serde_json::to_string_pretty(&report).expect("JSON values serialize"));
}

/// Files as a folder drop gives them: names relative to the folder dropped, so the
/// `<session>/subagents/` layout is visible.
fn read_inputs(paths: &[PathBuf]) -> std::io::Result<Vec<Input>> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            found.sort();
            for file in found {
                let name = file.strip_prefix(path).unwrap_or(&file).to_string_lossy().replace('\\', "/");
                inputs.push(Input { name, bytes: std::fs::read(&file)? });
            }
        } else {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            inputs.push(Input { name, bytes: std::fs::read(path)? });
        }
    }
    Ok(inputs)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.to_string_lossy().ends_with(".jsonl") || beside(&path.to_string_lossy()).is_some() {
            out.push(path);
        }
    }
    Ok(())
}

fn inspect(ws: &Workspace) -> Value {
    let sessions: Vec<Value> = ws
        .sessions
        .iter()
        .map(|session| {
            let mut files: Vec<u32> = session.file.into_iter().collect();
            files.extend(session.agents.iter().filter_map(|a| a.file));
            let mut census = Census::default();
            for &f in &files {
                let file = &ws.files[f as usize];
                for (key, n) in file.census().0 {
                    *census.0.entry(key).or_insert(0) += n;
                }
            }
            let agents: Vec<Value> = session
                .agents
                .iter()
                .map(|agent| {
                    let link = match agent.link {
                        AgentLink::Orphan => json!("orphan"),
                        AgentLink::ToolCall { line, how } | AgentLink::At { line, how } => {
                            let file = ws.file(line);
                            let mut link = json!({
                                "file": file.name,
                                "line": file.lines[line.line as usize].number,
                                "evidence": evidence(how),
                            });
                            // A call has an id; a line an agent was born at has none to give.
                            if matches!(agent.link, AgentLink::ToolCall { .. }) {
                                link["toolUseId"] =
                                    json!(tool_use_id_of(ws, session, agent_index(session, agent)));
                            }
                            link
                        }
                    };
                    json!({
                        "agentId": agent.agent_id,
                        "file": agent.file.map(|f| ws.files[f as usize].name.clone()),
                        "description": agent.description,
                        "agentType": agent.agent_type,
                        "kind": match &agent.kind {
                            AgentKind::Task => json!("task"),
                            AgentKind::Fork => json!("fork"),
                            AgentKind::SideQuestion => json!("sideQuestion"),
                            AgentKind::TeamMember { name, team } => json!({"teamMember": name, "team": team}),
                        },
                        "spawnDepth": agent.spawn_depth,
                        "items": agent.thread.items.len(),
                        "linkedTo": link,
                        "stats": agent.stats,
                    })
                })
                .collect();
            let branches: Vec<Value> = session
                .branches
                .iter()
                .map(|b| {
                    json!({
                        "forkPointLine": b.fork_point.map(|l| ws.line(l).number),
                        "items": b.thread.items.len(),
                    })
                })
                .collect();
            json!({
                "sessionId": session.session_id,
                "file": session.file.map(|f| ws.files[f as usize].name.clone()),
                "title": session.title,
                "items": outline(&session.thread),
                "accounting": {
                    "lines": session.accounting.lines,
                    "shown": session.accounting.rendered,
                    "merged": session.accounting.merged,
                    "notShown": cctv::present::accounting::in_words(&session.accounting).not_shown,
                },
                "census": census.0,
                "agents": agents,
                "branches": branches,
                "stats": session.stats,
                "cost": cost(ws, session),
                "tools": cctv::insight::overview::tools(ws, session),
                "changedFiles": changed_files(ws, session),
            })
        })
        .collect();
    let rejected: Vec<Value> =
        ws.rejected.iter().map(|(name, reason)| json!({"file": name, "reason": reason})).collect();
    json!({ "sessions": sessions, "rejected": rejected })
}

/// What the session cost: tokens counted once per response, priced by cctv's table (an
/// estimate), in all, for the main conversation, per sub-agent and per model.
fn cost(ws: &Workspace, session: &normalize::Session) -> Value {
    use cctv::insight::cost::{session_cost, PRICES_CHECKED, PRICES_SOURCE};
    let cost = session_cost(ws, session);
    json!({
        "estimatedDollars": cost.total.dollars,
        "total": cost.total,
        "main": cost.main,
        "agents": cost.agents,
        "byModel": cost.by_model,
        "prices": { "source": PRICES_SOURCE, "checked": PRICES_CHECKED },
    })
}

/// Each file the session changed: its path, its net lines added and removed, and how sure that is.
fn changed_files(ws: &Workspace, session: &normalize::Session) -> Value {
    let files: Vec<Value> = cctv::insight::changes::changes(ws, session, None)
        .into_iter()
        .map(|f| {
            json!({
                "path": f.path,
                "added": f.added,
                "removed": f.removed,
                "changes": f.calls.len(),
                "created": f.created,
                "partial": f.partial,
                "byShell": f.by_shell,
                "changedOutside": f.outside,
            })
        })
        .collect();
    json!(files)
}

fn agent_index(session: &normalize::Session, agent: &normalize::Agent) -> usize {
    session.agents.iter().position(|a| std::ptr::eq(a, agent)).unwrap_or(0)
}

/// The id of the call that spawned agent `index`.
fn tool_use_id_of(ws: &Workspace, session: &normalize::Session, index: usize) -> Option<String> {
    let threads = std::iter::once(&session.thread)
        .chain(session.branches.iter().map(|b| &b.thread))
        .chain(session.agents.iter().map(|a| &a.thread));
    for thread in threads {
        for item in &thread.items {
            if let ItemKind::ToolCall(call) = &item.kind {
                if call.agents.contains(&(index as u32)) {
                    return call.tool_use_id.map(|id| id.decode(&ws.file(item.line).bytes).into_owned());
                }
            }
        }
    }
    None
}

fn evidence(how: LinkEvidence) -> &'static str {
    match how {
        LinkEvidence::ResultAgentId => "toolUseResult.agentId",
        LinkEvidence::MetaToolUseId => "meta.json toolUseId",
        LinkEvidence::AgentProgress => "agent_progress",
        LinkEvidence::Prompt => "prompt",
        LinkEvidence::Description => "meta.json description",
        LinkEvidence::WorkflowRun => "workflow run folder",
        LinkEvidence::TeamName => "team member name",
        LinkEvidence::TeamCreate => "TeamCreate team_name",
        LinkEvidence::ForkContextRef => "fork-context-ref parentLastUuid",
        LinkEvidence::SideQuestionTurn => "side question's turn",
    }
}

/// Items by kind, for a quick look.
fn outline(thread: &Thread) -> Value {
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for item in &thread.items {
        *counts.entry(item.kind.name()).or_insert(0) += 1;
    }
    json!({ "total": thread.items.len(), "byKind": counts, "turns": thread.responses.len() })
}

/// Parse and normalize throughput over the given files, next to serde_json building a `Value`
/// per line of the same bytes (the ratio is what to compare across machines).
fn bench_report(inputs: Vec<Input>) -> Value {
    let bytes: usize = inputs.iter().map(|i| i.bytes.len()).sum();
    let mb = bytes as f64 / 1e6;
    let runs = 5;
    let best = |f: &mut dyn FnMut()| {
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let baseline = best(&mut || {
        for input in &inputs {
            for line in input.bytes.split(|&b| b == b'\n') {
                let value: Result<Value, _> = serde_json::from_slice(line);
                std::hint::black_box(&value);
            }
        }
    });
    let parse = best(&mut || {
        for input in &inputs {
            std::hint::black_box(Transcript::parse(input.name.clone(), input.bytes.clone()));
        }
    });
    let total = best(&mut || {
        std::hint::black_box(normalize::normalize(inputs.clone()));
    });
    json!({
        "files": inputs.len(),
        "megabytes": mb,
        "runs": runs,
        "baselineSerdeValueMBs": mb / baseline,
        "parseMBs": mb / parse,
        "parseAndNormalizeMBs": mb / total,
        "parseVsBaseline": baseline / parse,
        "parseAndNormalizeVsBaseline": baseline / total,
    })
}
