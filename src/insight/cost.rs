//! What a session cost: each API response's tokens, counted once (a response is several lines
//! that share `message.id` and `requestId`; normalize keeps one [`Response`] per response), priced by
//! the table below, and added up per model, per sub-agent and for the session with its
//! sub-agents. An estimate: the table is Anthropic's list prices, not what an account was billed.
//!
//! A model not in the table is *unpriced*, never $0. A response whose last usage says 1 or 2
//! output tokens although it wrote more is *partial*: Claude Code wrote its usage while the
//! answer was still streaming, so its output tokens (and cost) are too low.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::model::Usage;
use crate::normalize::{ItemKind, ItemRef, Response, Session, Thread, ThreadRef, Workspace};

/// Dollars per million tokens of each kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prices {
    pub input: f64,
    /// Writing the cache for five minutes, and for an hour.
    pub cache_write_5m: f64,
    pub cache_write_1h: f64,
    pub cache_read: f64,
    pub output: f64,
}

/// Where the prices below come from, and when they were last compared with it.
pub const PRICES_SOURCE: &str = "https://platform.claude.com/docs/en/about-claude/pricing";
pub const PRICES_CHECKED: &str = "2026-11-24";

const fn p(input: f64, cache_write_5m: f64, cache_write_1h: f64, cache_read: f64, output: f64) -> Prices {
    Prices { input, cache_write_5m, cache_write_1h, cache_read, output }
}

/// One row of the price list: the model names it covers (as [`family`] writes them), its
/// prices, and the prices of a request whose prompt is longer than a threshold, where the model
/// has them.
struct Row {
    names: &'static [&'static str],
    prices: Prices,
    long: Option<(u64, Prices)>,
}

/// Anthropic's list prices (USD per million tokens), per [`PRICES_SOURCE`] on [`PRICES_CHECKED`].
const TABLE: &[Row] = &[
    Row { names: &["fable-5-1", "mythos-5-1"], prices: p(10.0, 12.5, 20.0, 0.25, 50.0), long: None },
    Row { names: &["fable-5", "mythos-5"], prices: p(10.0, 12.5, 20.0, 1.0, 50.0), long: None },
    Row { names: &["opus-5-5"], prices: p(4.0, 5.0, 8.0, 0.2, 20.0), long: None },
    Row {
        names: &["opus-5", "opus-4-8", "opus-4-7", "opus-4-6", "opus-4-5"],
        prices: p(5.0, 6.25, 10.0, 0.5, 25.0),
        long: None,
    },
    Row { names: &["opus-4-1", "opus-4", "3-opus"], prices: p(15.0, 18.75, 30.0, 1.5, 75.0), long: None },
    Row { names: &["sonnet-5-5", "sonnet-5"], prices: p(2.0, 2.5, 4.0, 0.2, 10.0), long: None },
    Row { names: &["sonnet-4-6"], prices: p(3.0, 3.75, 6.0, 0.3, 15.0), long: None },
    // Sonnet 4 and 4.5 with the 1M context: a prompt over 200K tokens is priced higher, all of it.
    Row {
        names: &["sonnet-4-5", "sonnet-4"],
        prices: p(3.0, 3.75, 6.0, 0.3, 15.0),
        long: Some((200_000, p(6.0, 7.5, 12.0, 0.6, 22.5))),
    },
    Row {
        names: &["3-7-sonnet", "3-5-sonnet", "3-sonnet"],
        prices: p(3.0, 3.75, 6.0, 0.3, 15.0),
        long: None,
    },
    Row {
        names: &["haiku-5-5"],
        prices: p(0.1, 0.125, 0.2, 0.01, 0.5),
        long: Some((100_000, p(0.5, 0.625, 1.0, 0.05, 2.5))),
    },
    Row { names: &["haiku-4-5"], prices: p(1.0, 1.25, 2.0, 0.1, 5.0), long: None },
    Row { names: &["3-5-haiku"], prices: p(0.8, 1.0, 1.6, 0.08, 4.0), long: None },
    Row { names: &["3-haiku"], prices: p(0.25, 0.3, 0.5, 0.03, 1.25), long: None },
];

/// A model id as the table names it: `claude-opus-4-5-20251101` → `opus-4-5`,
/// `claude-sonnet-4-6[1m]` → `sonnet-4-6`; `None` for what is not a Claude model id (`<synthetic>`,
/// an alias like `sonnet`).
pub fn family(model: &str) -> Option<String> {
    let model = model.trim().to_ascii_lowercase();
    let model = model.split('[').next().unwrap_or_default();
    let rest = model.strip_prefix("claude-")?;
    // A date at the end (`-20250514`), or a version tag (`-v1:0`, `@20250514` on the clouds).
    let rest = rest.split(['@', ':']).next().unwrap_or_default();
    let parts: Vec<&str> = rest.split('-').collect();
    let keep = parts
        .iter()
        .position(|p| {
            p.len() >= 8 && p.bytes().all(|b| b.is_ascii_digit())
                || p.starts_with('v') && p.len() > 1 && p[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .unwrap_or(parts.len());
    (keep > 0).then(|| parts[..keep].join("-"))
}

/// The prices of `model` for a request whose prompt is `prompt` tokens long; `None` if the table
/// does not have it.
pub fn prices(model: &str, prompt: u64) -> Option<Prices> {
    let family = family(model)?;
    let row = TABLE.iter().find(|row| row.names.contains(&family.as_str()))?;
    Some(match row.long {
        Some((threshold, long)) if prompt > threshold => long,
        _ => row.prices,
    })
}

/// The prompt a response was given: what it read fresh, from the cache, and into the cache.
pub(crate) fn prompt_tokens(usage: &Usage) -> u64 {
    usage
        .input_tokens
        .saturating_add(usage.cache_read_input_tokens)
        .saturating_add(usage.cache_creation_input_tokens)
}

/// What `usage` cost at `prices`, in dollars.
pub fn dollars(usage: &Usage, prices: &Prices) -> f64 {
    let one_hour = usage.cache_creation_1h_input_tokens.min(usage.cache_creation_input_tokens);
    let five_minutes = usage.cache_creation_input_tokens - one_hour;
    (usage.input_tokens as f64 * prices.input
        + five_minutes as f64 * prices.cache_write_5m
        + one_hour as f64 * prices.cache_write_1h
        + usage.cache_read_input_tokens as f64 * prices.cache_read
        + usage.output_tokens as f64 * prices.output)
        / 1e6
}

/// `$25.17`, `$0.042`, `<$0.001`: dollars as an estimate reads, to a tenth of a cent below a
/// dollar.
pub fn dollars_label(dollars: f64) -> String {
    let thousandths = (dollars * 1000.0).round() / 1000.0;
    match dollars {
        d if d.is_nan() || d <= 0.0 => "$0".into(),
        d if d < 0.0005 => "<$0.001".into(),
        _ if thousandths < 1.0 => format!("${}", format!("{thousandths:.3}").trim_end_matches('0')),
        d => format!("${d:.2}"),
    }
}

/// The model a response names (`""` when it names none).
pub(crate) fn model_of<'w>(ws: &'w Workspace, response: &Response) -> &'w str {
    match (response.model, response.lines.first()) {
        (Some(model), Some(&line)) => model.raw(ws.src(line)),
        _ => "",
    }
}

/// What a response cost, where its model is priced.
pub(crate) fn response_dollars(ws: &Workspace, response: &Response) -> Option<f64> {
    prices(model_of(ws, response), prompt_tokens(&response.usage)).map(|p| dollars(&response.usage, &p))
}

/// One API response.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResponseCost {
    pub model: String,
    pub usage: Tokens,
    /// `None`: the model is not in the table.
    pub dollars: Option<f64>,
    /// Its usage was written mid-stream: the output is undercounted.
    pub partial: bool,
}

/// Tokens of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tokens {
    pub input: u64,
    pub cache_read: u64,
    pub cache_write_5m: u64,
    pub cache_write_1h: u64,
    pub output: u64,
}

impl Tokens {
    fn of(usage: &Usage) -> Tokens {
        let one_hour = usage.cache_creation_1h_input_tokens.min(usage.cache_creation_input_tokens);
        Tokens {
            input: usage.input_tokens,
            cache_read: usage.cache_read_input_tokens,
            cache_write_5m: usage.cache_creation_input_tokens - one_hour,
            cache_write_1h: one_hour,
            output: usage.output_tokens,
        }
    }

    fn add(&mut self, other: &Tokens) {
        self.input = self.input.saturating_add(other.input);
        self.cache_read = self.cache_read.saturating_add(other.cache_read);
        self.cache_write_5m = self.cache_write_5m.saturating_add(other.cache_write_5m);
        self.cache_write_1h = self.cache_write_1h.saturating_add(other.cache_write_1h);
        self.output = self.output.saturating_add(other.output);
    }

    pub fn total(&self) -> u64 {
        [self.input, self.cache_read, self.cache_write_5m, self.cache_write_1h, self.output]
            .iter()
            .fold(0u64, |a, b| a.saturating_add(*b))
    }
}

/// Responses added up.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Total {
    pub responses: u64,
    pub tokens: Tokens,
    /// Of the priced responses.
    pub dollars: f64,
    /// Responses of models the table does not have: their cost is not in `dollars`.
    pub unpriced: u64,
    pub partial: u64,
}

impl Total {
    fn add(&mut self, response: &ResponseCost) {
        self.responses += 1;
        self.tokens.add(&response.usage);
        match response.dollars {
            Some(d) => self.dollars += d,
            None => self.unpriced += 1,
        }
        self.partial += response.partial as u64;
    }

    fn add_total(&mut self, other: &Total) {
        self.responses += other.responses;
        self.tokens.add(&other.tokens);
        self.dollars += other.dollars;
        self.unpriced += other.unpriced;
        self.partial += other.partial;
    }
}

/// A session's cost: its own responses, each sub-agent's, and the sum, per model too.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionCost {
    /// The main conversation's responses, in order.
    pub responses: Vec<ResponseCost>,
    /// Each sub-agent's total, in the session's order of agents.
    pub agents: Vec<Total>,
    /// The main conversation alone.
    pub main: Total,
    /// The main conversation and every sub-agent.
    pub total: Total,
    pub by_model: BTreeMap<String, Total>,
}

/// Each response of `thread` (whose lines are in `ws`), priced.
pub fn responses(ws: &Workspace, thread: &Thread) -> Vec<ResponseCost> {
    // How much each response wrote (characters of text and thinking; a tool call counts as
    // plenty), to tell a usage written mid-stream.
    let mut wrote = vec![0usize; thread.responses.len()];
    for item in &thread.items {
        let Some(response) = item.response.map(|t| t as usize) else { continue };
        // Only a response whose usage says 2 tokens or fewer can be partial: decode no other.
        if thread.responses.get(response).is_none_or(|t| t.usage.output_tokens > 2) {
            continue;
        }
        let slot = &mut wrote[response];
        let written = match &item.kind {
            ItemKind::ToolCall(_) => usize::MAX,
            ItemKind::Text | ItemKind::Thinking => ws.shown_text(item).chars().count(),
            _ => 0,
        };
        *slot = slot.saturating_add(written);
    }
    thread.responses.iter().zip(wrote).map(|(response, wrote)| cost_of(ws, response, wrote)).collect()
}

/// A response, from its usage; `wrote` is how much it wrote (see [`responses`]).
fn cost_of(ws: &Workspace, response: &Response, wrote: usize) -> ResponseCost {
    let model = model_of(ws, response).to_owned();
    let dollars = response_dollars(ws, response);
    // Two tokens are a word or two: a response that wrote more, or called a tool, had its usage
    // written before it was done.
    let partial = response.usage.output_tokens <= 2 && wrote > 16;
    ResponseCost { usage: Tokens::of(&response.usage), dollars, partial, model }
}

/// What each turn of `session` cost (`turns` are its turns' rows of the main conversation, from
/// [`crate::insight::changes::turn_choices`]): the responses of its rows and of every sub-agent its calls
/// spawned, however deep. `cost` is the session's ([`session_cost`]). Sub-agents no call in the
/// main conversation leads to are in no turn: they are the last total.
pub fn turn_costs(
    ws: &Workspace,
    session: &Session,
    cost: &SessionCost,
    turns: &[Range<usize>],
) -> Vec<Total> {
    let main = responses(ws, &session.thread);
    // Each agent's row in the main conversation: its call's, or its calling agent's, up the tree.
    let parents = session.agent_parents();
    let row_of = |agent: usize| match session.ancestry(&parents, agent as u32) {
        (_, Some(ItemRef { thread: ThreadRef::Main, item })) => Some(item as usize),
        _ => None,
    };
    let mut out = vec![Total::default(); turns.len() + 1];
    let turn_of = |row: usize| turns.iter().position(|t| t.contains(&row)).unwrap_or(turns.len());
    let mut seen = vec![false; main.len()];
    for (row, item) in session.thread.items.iter().enumerate() {
        let Some(t) = item.response.map(|t| t as usize).filter(|&t| t < seen.len() && !seen[t]) else {
            continue;
        };
        seen[t] = true;
        if main[t].model != "<synthetic>" {
            out[turn_of(row)].add(&main[t]);
        }
    }
    for (agent, total) in cost.agents.iter().enumerate() {
        out[row_of(agent).map_or(turns.len(), turn_of)].add_total(total);
    }
    out
}

/// What `session` cost, with its sub-agents.
pub fn session_cost(ws: &Workspace, session: &Session) -> SessionCost {
    let mut cost = SessionCost { responses: responses(ws, &session.thread), ..SessionCost::default() };
    // Responses whose model is Claude Code's stand-in for a failed request are not requests.
    cost.responses.retain(|r| r.model != "<synthetic>");
    let mut by_model: BTreeMap<String, Total> = BTreeMap::new();
    for r in &cost.responses {
        cost.main.add(r);
        by_model.entry(r.model.clone()).or_default().add(r);
    }
    for agent in &session.agents {
        let mut total = Total::default();
        for r in responses(ws, &agent.thread).iter().filter(|r| r.model != "<synthetic>") {
            total.add(r);
            by_model.entry(r.model.clone()).or_default().add(r);
        }
        cost.agents.push(total);
    }
    cost.total = cost.main.clone();
    for agent in &cost.agents {
        cost.total.add_total(agent);
    }
    cost.by_model = by_model;
    cost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_read_as_an_estimate() {
        assert_eq!(dollars_label(25.1713), "$25.17");
        assert_eq!(dollars_label(0.0425), "$0.043");
        assert_eq!(dollars_label(0.1), "$0.1");
        assert_eq!(dollars_label(0.0004), "<$0.001");
        assert_eq!(dollars_label(0.0), "$0");
        assert_eq!(dollars_label(0.9996), "$1.00");
        assert_eq!(dollars_label(f64::NAN), "$0");
    }
}
