//! What a session cost, on real fixtures: each response counted once (not once per line), priced
//! by the table, partial usage told apart, an unknown model unpriced rather than free.

mod common;

use cctv::insight::cost::{dollars, family, prices, session_cost, Tokens};
use cctv::model::Usage;
use cctv::normalize::normalize;

#[test]
fn each_response_is_counted_once_with_its_final_usage() {
    // Hand-checked with Python over the file: the assistant lines outside sidechains, grouped by
    // (message.id, requestId), the last line's usage of each: 171 responses. Summing every line
    // instead gives 957,308 output tokens and 47,664,937 cache reads (2.9x and 2.1x).
    let ws = normalize(vec![common::input(
        "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl",
    )]);
    let cost = session_cost(&ws, &ws.sessions[0]);
    assert_eq!(cost.main.responses, 171);
    assert_eq!(
        cost.main.tokens,
        Tokens {
            input: 13_175,
            cache_read: 22_205_651,
            cache_write_5m: 0,
            cache_write_1h: 563_680,
            output: 334_632
        }
    );
    // claude-opus-4-8 at $5 / $10 (1h write) / $0.50 / $25 per million:
    // 13,175×5 + 563,680×10 + 22,205,651×0.5 + 334,632×25 = $25.1713005.
    assert!((cost.main.dollars - 25.1713005).abs() < 1e-6, "{}", cost.main.dollars);
    assert_eq!((cost.main.unpriced, cost.main.partial), (0, 0));
}

#[test]
fn sub_agents_add_up_into_the_session_and_usage_written_mid_stream_is_partial() {
    // Claude Code 2.1 wrote each response's usage while it streamed: 11 responses in the session
    // file say 32 output tokens in all; the five sub-agents 2 responses each.
    let ws = normalize(common::folder("moredip__session-share/samples/claude-code-projects"));
    let cost = session_cost(&ws, &ws.sessions[0]);
    assert_eq!(cost.main.responses, 11);
    assert_eq!(cost.main.tokens.output, 32);
    assert_eq!(cost.agents.len(), 5);
    assert!(cost.agents.iter().all(|a| a.responses == 2));
    assert_eq!(cost.total.responses, 21);
    assert_eq!(cost.total.tokens.output, 32 + 4 + 2 + 3 + 2 + 8);
    assert!(cost.main.partial >= 5, "{} partial", cost.main.partial);
    let by_model: u64 = cost.by_model.values().map(|t| t.responses).sum();
    assert_eq!(by_model, 21);
}

#[test]
fn a_usage_costs_what_the_table_says_for_two_models_and_nothing_for_an_unknown_one() {
    let usage = Usage {
        input_tokens: 1_000,
        output_tokens: 2_000,
        cache_creation_input_tokens: 10_000,
        cache_creation_1h_input_tokens: 4_000,
        cache_read_input_tokens: 100_000,
    };
    // Opus 4.5: 1,000×5 + 6,000×6.25 + 4,000×10 + 100,000×0.5 + 2,000×25 = $0.1825.
    let opus = prices("claude-opus-4-5-20251101", 111_000).unwrap();
    assert!((dollars(&usage, &opus) - 0.1825).abs() < 1e-9);
    // Haiku 4.5: 1,000×1 + 6,000×1.25 + 4,000×2 + 100,000×0.1 + 2,000×5 = $0.0365.
    let haiku = prices("claude-haiku-4-5-20251001", 111_000).unwrap();
    assert!((dollars(&usage, &haiku) - 0.0365).abs() < 1e-9);
    // Sonnet 4.5 over 200K tokens of prompt is priced at its long-context rates.
    assert_eq!(prices("claude-sonnet-4-5-20250929", 250_000).unwrap().input, 6.0);
    assert_eq!(prices("claude-sonnet-4-5-20250929", 150_000).unwrap().input, 3.0);
    for unknown in ["sonnet", "<synthetic>", "gpt-4o", "claude-nova-9"] {
        assert_eq!(prices(unknown, 0), None, "{unknown}");
    }
    assert_eq!(family("claude-sonnet-4-20250514").as_deref(), Some("sonnet-4"));
    assert_eq!(family("claude-opus-4-6[1m]").as_deref(), Some("opus-4-6"));
    assert_eq!(family("claude-3-7-sonnet-20250219").as_deref(), Some("3-7-sonnet"));
}

#[test]
fn a_session_of_a_model_the_table_does_not_have_is_unpriced_not_free() {
    let line = r#"{"type":"assistant","uuid":"a1","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-nova-9","content":[{"type":"text","text":"hello there, this is a long enough answer"}],"usage":{"input_tokens":10,"output_tokens":50}}}"#;
    let ws =
        normalize(vec![cctv::normalize::Input { name: "s.jsonl".into(), bytes: line.as_bytes().to_vec() }]);
    let cost = session_cost(&ws, &ws.sessions[0]);
    assert_eq!((cost.total.responses, cost.total.unpriced, cost.total.dollars), (1, 1, 0.0));
    assert_eq!(cost.responses[0].dollars, None);
}

#[test]
fn other_providers_models_are_unpriced_beside_a_priced_claude_model() {
    // Claude Code run against other providers' models writes their names and their tool-use ids
    // (`functions.Agent:29`, `call_00_…`); hand-written lines in that form. The table prices only
    // Claude models: the others are counted as unpriced, never as $0.
    let line = |uuid: &str, parent: Option<&str>, model: &str, id: &str| {
        serde_json::json!({"type": "assistant", "uuid": uuid, "parentUuid": parent, "sessionId": "s",
            "timestamp": "2026-01-01T00:00:00Z", "requestId": format!("r_{uuid}"),
            "message": {"id": format!("m_{uuid}"), "role": "assistant", "model": model,
                "content": [{"type": "tool_use", "id": id, "name": "Read", "input": {"file_path": "/a"}}],
                "usage": {"input_tokens": 1000, "output_tokens": 100}}})
        .to_string()
    };
    let lines = [
        line("a1", None, "deepseek-chat", "call_00_Zb3fQ9xKp2"),
        line("a2", Some("a1"), "kimi-k2-0905-preview", "functions.Read:29"),
        line("a3", Some("a2"), "claude-haiku-4-5-20251001", "toolu_01A"),
    ];
    let ws = normalize(vec![cctv::normalize::Input {
        name: "s.jsonl".into(),
        bytes: lines.join("\n").into_bytes(),
    }]);
    let cost = session_cost(&ws, &ws.sessions[0]);
    assert_eq!((cost.total.responses, cost.total.unpriced), (3, 2));
    let priced: Vec<bool> = cost.responses.iter().map(|r| r.dollars.is_some()).collect();
    assert_eq!(priced, [false, false, true]);
    // Haiku 4.5: 1,000×1 + 100×5 per million = $0.0015, and nothing for the other two.
    assert!((cost.total.dollars - 0.0015).abs() < 1e-9, "{}", cost.total.dollars);
}

#[test]
fn the_turns_add_up_to_the_session() {
    let ws = normalize(common::folder("moredip__session-share/samples/claude-code-projects"));
    let s = &ws.sessions[0];
    let turns: Vec<_> = cctv::insight::changes::turn_choices(&ws, s).into_iter().map(|t| t.items).collect();
    let cost = session_cost(&ws, s);
    let per_turn = cctv::insight::cost::turn_costs(&ws, s, &cost, &turns);
    assert_eq!(per_turn.len(), turns.len() + 1, "and the sub-agents of no turn");
    assert_eq!(per_turn.last().unwrap().responses, 0);
    assert_eq!(per_turn.iter().map(|t| t.responses).sum::<u64>(), cost.total.responses);
    let dollars: f64 = per_turn.iter().map(|t| t.dollars).sum();
    assert!((dollars - cost.total.dollars).abs() < 1e-9, "{dollars} vs {}", cost.total.dollars);
    // The first turn spawned the three curry poems' agents: their responses are its.
    assert!(per_turn[0].responses >= 6, "{:?}", per_turn[0]);
}
