//! Syntax highlighting of code blocks: Sublime Text grammars (syntect) split the code into scopes,
//! and each scope becomes one of a few classes. The result is the same safe markup as the rest:
//! spans of text, class names chosen here.

use std::sync::OnceLock;

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

use super::markup::{Element, Node, Tag};

/// Loaded on the first code block shown (about 0.2 s in a browser), then kept.
fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// Code longer than this is shown plain: highlighting is for reading, not for megabyte dumps.
const LIMIT: usize = 200_000;

fn syntax_for(language: &str) -> Option<&'static SyntaxReference> {
    let set = syntaxes();
    let language = language.trim().to_ascii_lowercase();
    let alias = match language.as_str() {
        "sh" | "shell" | "zsh" | "console" => "bash",
        "ts" | "typescript" | "tsx" => "js",
        "py" => "python",
        "rs" => "rust",
        "yml" => "yaml",
        "md" => "markdown",
        other => other,
    };
    set.find_syntax_by_token(alias).or_else(|| set.find_syntax_by_extension(alias))
}

/// The syntax for a file path, by its extension.
pub fn language_of_path(path: &str) -> Option<String> {
    let ext = path.rsplit('/').next()?.rsplit_once('.')?.1;
    syntax_for(ext).map(|_| ext.to_owned())
}

/// `code` split into highlighted spans; plain text when the language is unknown.
pub fn highlight(code: &str, language: &str) -> Vec<Node> {
    let Some(syntax) = (code.len() <= LIMIT).then(|| syntax_for(language)).flatten() else {
        return vec![Node::Text(code.to_owned())];
    };
    let set = syntaxes();
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut out: Vec<Node> = Vec::new();
    for line in code.split_inclusive('\n') {
        let Ok(ops) = state.parse_line(line, set) else {
            out.push(Node::Text(line.to_owned()));
            continue;
        };
        let mut at = 0;
        for (position, op) in ops {
            push(&mut out, &line[at..position], &stack);
            at = position;
            let _ = stack.apply(&op);
        }
        push(&mut out, &line[at..], &stack);
    }
    out
}

fn push(out: &mut Vec<Node>, text: &str, stack: &ScopeStack) {
    if text.is_empty() {
        return;
    }
    match class_of(stack) {
        Some(class) => {
            let mut span = Element::new(Tag::Span).with_class(class);
            span.children.push(Node::Text(text.to_owned()));
            out.push(Node::Element(span));
        }
        None => match out.last_mut() {
            Some(Node::Text(last)) => last.push_str(text),
            _ => out.push(Node::Text(text.to_owned())),
        },
    }
}

/// The innermost scope that names a kind cctv colours.
fn class_of(stack: &ScopeStack) -> Option<&'static str> {
    const KINDS: &[(&str, &str)] = &[
        ("comment", "cctv-hl--comment"),
        ("string", "cctv-hl--string"),
        ("constant.numeric", "cctv-hl--number"),
        ("constant.language", "cctv-hl--constant"),
        ("constant.character", "cctv-hl--string"),
        ("keyword", "cctv-hl--keyword"),
        ("storage.type", "cctv-hl--keyword"),
        ("storage.modifier", "cctv-hl--keyword"),
        ("entity.name.function", "cctv-hl--function"),
        ("support.function", "cctv-hl--function"),
        ("variable.function", "cctv-hl--function"),
        ("entity.name.type", "cctv-hl--type"),
        ("entity.name.class", "cctv-hl--type"),
        ("support.type", "cctv-hl--type"),
        ("support.class", "cctv-hl--type"),
        ("entity.name.tag", "cctv-hl--keyword"),
        ("entity.other.attribute-name", "cctv-hl--type"),
        ("variable.parameter", "cctv-hl--variable"),
        ("punctuation.definition.comment", "cctv-hl--comment"),
    ];
    stack.as_slice().iter().rev().find_map(|scope: &Scope| {
        let name = scope.build_string();
        KINDS.iter().find(|(prefix, _)| name.starts_with(prefix)).map(|(_, class)| *class)
    })
}

#[cfg(test)]
mod tests {
    use super::highlight;
    use crate::present::markup::Node;

    fn classes(nodes: &[Node]) -> Vec<(String, String)> {
        nodes
            .iter()
            .filter_map(|n| match n {
                Node::Element(e) => Some((e.class.clone(), n.text())),
                Node::Text(_) => None,
            })
            .collect()
    }

    #[test]
    fn rust_keywords_strings_and_comments_get_their_classes_and_the_text_is_kept() {
        let code = "fn main() {\n    let s = \"hi\"; // greet\n}\n";
        let nodes = highlight(code, "rust");
        let text: String = nodes.iter().map(Node::text).collect();
        assert_eq!(text, code, "highlighting never changes the text");
        let found = classes(&nodes);
        assert!(found.contains(&("cctv-hl--keyword".into(), "fn".into())), "{found:?}");
        assert!(found.iter().any(|(c, t)| c == "cctv-hl--string" && t.contains("hi")), "{found:?}");
        assert!(found.iter().any(|(c, t)| c == "cctv-hl--comment" && t.contains("greet")), "{found:?}");
    }

    #[test]
    fn an_unknown_language_is_plain_text() {
        assert_eq!(highlight("<b>x</b>", "no-such-language"), vec![Node::Text("<b>x</b>".into())]);
    }
}
