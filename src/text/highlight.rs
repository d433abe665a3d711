//! Syntax highlighting of code blocks: Sublime Text grammars (syntect) split the code into scopes,
//! and each scope becomes one of a few classes. The result is the same safe markup as the rest:
//! spans of text, class names chosen here.

use std::sync::OnceLock;

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

use crate::text::markup::{Element, Node, Tag};

/// The grammars: syntect's default set, `www/grammars.packdump` (Sublime Text's packages as
/// syntect 5.3 ships them). A page fetches the file once and hands it to [`load_grammars`] (it
/// is half of what the wasm would weigh with it inside); until then code is shown plain. Native
/// builds (tests, the command line) have it built in.
static GRAMMARS: OnceLock<SyntaxSet> = OnceLock::new();

#[cfg(not(target_arch = "wasm32"))]
const BUILT_IN: &[u8] = include_bytes!("../../www/grammars.packdump");

/// Loads the grammars from `dump` (the bytes of `grammars.packdump`); later calls keep the first.
pub fn load_grammars(dump: &[u8]) -> Result<(), String> {
    if GRAMMARS.get().is_none() {
        let set = syntect::dumps::from_uncompressed_data(dump).map_err(|e| e.to_string())?;
        let _ = GRAMMARS.set(set);
    }
    Ok(())
}

/// Whether code can be highlighted yet.
pub fn grammars_loaded() -> bool {
    syntaxes().is_some()
}

fn syntaxes() -> Option<&'static SyntaxSet> {
    #[cfg(not(target_arch = "wasm32"))]
    if GRAMMARS.get().is_none() {
        load_grammars(BUILT_IN).expect("the built-in grammars load");
    }
    GRAMMARS.get()
}

/// Code longer than this is shown plain: highlighting is for reading, not for megabyte dumps.
const LIMIT: usize = 200_000;

fn syntax_for(language: &str) -> Option<&'static SyntaxReference> {
    let set = syntaxes()?;
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
pub(crate) fn language_of_path(path: &str) -> Option<String> {
    let ext = path.rsplit('/').next()?.rsplit_once('.')?.1;
    syntax_for(ext).map(|_| ext.to_owned())
}

/// `code` split into highlighted spans; plain text when the language is unknown.
pub fn highlight(code: &str, language: &str) -> Vec<Node> {
    let Some(mut lines) = (code.len() <= LIMIT).then(|| Highlighter::new(language)).flatten() else {
        return vec![Node::Text(code.to_owned())];
    };
    let mut out: Vec<Node> = Vec::new();
    for line in code.split_inclusive('\n') {
        for node in lines.line(line) {
            match (out.last_mut(), node) {
                (Some(Node::Text(last)), Node::Text(text)) => last.push_str(&text),
                (_, node) => out.push(node),
            }
        }
    }
    out
}

/// `code` highlighted line by line (each without its line break), for views that number their
/// lines; plain lines when the language is unknown or the code too long.
pub fn highlight_lines(code: &str, language: Option<&str>) -> Vec<Vec<Node>> {
    let mut lines = language.filter(|_| code.len() <= LIMIT).and_then(Highlighter::new);
    code.lines()
        .map(|line| match &mut lines {
            Some(h) => h.line(line),
            None => vec![Node::Text(line.to_owned())],
        })
        .collect()
}

/// A grammar's state from one line to the next: a string or comment opened on one line is still
/// open on the next.
pub(crate) struct Highlighter {
    state: ParseState,
    stack: ScopeStack,
    set: &'static SyntaxSet,
}

impl Highlighter {
    /// `None` for a language cctv has no grammar for.
    pub fn new(language: &str) -> Option<Highlighter> {
        let set = syntaxes()?;
        Some(Highlighter { state: ParseState::new(syntax_for(language)?), stack: ScopeStack::new(), set })
    }

    /// One line (with or without its line break) as spans.
    pub fn line(&mut self, line: &str) -> Vec<Node> {
        let mut out = Vec::new();
        // The grammars match line ends: a line is parsed with its break, shown without it.
        let (text, newline) = match line.strip_suffix('\n') {
            Some(text) => (text, "\n"),
            None => (line, ""),
        };
        let Ok(ops) = self.state.parse_line(&format!("{text}\n"), self.set) else {
            return vec![Node::Text(line.to_owned())];
        };
        let mut at = 0;
        for (position, op) in ops {
            let position = position.min(text.len());
            push(&mut out, &text[at..position], &self.stack);
            at = position;
            let _ = self.stack.apply(&op);
        }
        push(&mut out, &text[at..], &self.stack);
        if !newline.is_empty() {
            push(&mut out, newline, &self.stack);
        }
        out
    }
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
    use super::{highlight, highlight_lines};
    use crate::text::markup::Node;

    #[test]
    fn lines_keep_the_grammars_state_and_their_text() {
        let code = "/* a comment\nstill the comment */ let x = 1;\nplain";
        let lines = highlight_lines(code, Some("js"));
        assert_eq!(lines.len(), 3);
        for (line, nodes) in code.lines().zip(&lines) {
            assert_eq!(nodes.iter().map(Node::text).collect::<String>(), line);
        }
        let found = classes(&lines[1]);
        assert!(found.iter().any(|(c, t)| c == "cctv-hl--comment" && t.contains("still")), "{found:?}");
        assert!(found.contains(&("cctv-hl--keyword".into(), "let".into())), "{found:?}");
        assert_eq!(
            highlight_lines("a\nb", None),
            vec![vec![Node::Text("a".into())], vec![Node::Text("b".into())]]
        );
    }

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
