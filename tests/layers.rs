//! The house's layers, checked: every module under `src/` may use the layers below its own and
//! never one above, and the modules of one layer do not use each other in a circle. The order is
//! written once, in the ```layers block of docs/ARCHITECTURE.md; this test reads it there, reads
//! the `crate::…` and `super::…` paths of every file (tests inside a file excepted: they may
//! build fixtures from anything), and names each edge that breaks a rule. In the manner of
//! rust-analyzer's tidy tests: a rule a test checks stays a rule.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Layers whose modules still use each other in a circle, with the reason. Each entry is a debt;
/// the test fails when one is paid off and the entry is left behind.
const KNOWN_CIRCLES: &[(&str, &str)] = &[
    (
        "normalize",
        "view holds the view model's types, and the modules that fill them define some of their parts",
    ),
    (
        "ui",
        "state's Viewer holds the list's, the follower's and the Share tab's state (Library, Following, Share), and the modules that define them take a Viewer",
    ),
];

#[test]
fn layers_only_look_down() {
    let order = layer_order();
    let mut wrong = Vec::new();
    for file in rust_files(Path::new("src")) {
        let Some(module) = module_of(&file) else { continue };
        let Some(&own) = order.get(&module[0]) else {
            wrong.push(format!(
                "{}: `{}` is not in the layers of docs/ARCHITECTURE.md",
                file.display(),
                module[0]
            ));
            continue;
        };
        for (line, target) in uses(&file, &module) {
            let layer = &target[0];
            match order.get(layer) {
                Some(&level) if level > own => wrong.push(format!(
                    "{}:{line}: `{}` ({}) uses `crate::{}`, which is above it",
                    file.display(),
                    module.join("::"),
                    module[0],
                    target.join("::")
                )),
                None if !order.contains_key(layer) && is_module(layer) => {
                    wrong.push(format!("{}:{line}: `{layer}` is not in the layers", file.display()))
                }
                _ => {}
            }
        }
    }
    assert!(wrong.is_empty(), "layers that look up (docs/ARCHITECTURE.md, Layers):\n{}", wrong.join("\n"));
}

/// Below `browser`, code builds and tests natively: no DOM, no JavaScript.
#[test]
fn nothing_below_the_browser_layer_touches_the_page() {
    let order = layer_order();
    let browser = order["browser"];
    let mut wrong = Vec::new();
    for file in rust_files(Path::new("src")) {
        let Some(module) = module_of(&file) else { continue };
        if order.get(&module[0]).is_none_or(|&level| level >= browser) {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if ["leptos::", "web_sys::", "js_sys::", "wasm_bindgen::"].iter().any(|c| code.contains(c)) {
                wrong.push(format!("{}:{}: {}", file.display(), number + 1, line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "code below `browser` that touches the page:\n{}", wrong.join("\n"));
}

#[test]
fn no_module_circles_within_a_layer() {
    let mut graph: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(Path::new("src")) {
        let Some(module) = module_of(&file) else { continue };
        if module.len() < 2 {
            continue;
        }
        let node = (module[0].clone(), module[1].clone());
        let targets = graph.entry(node).or_default();
        for (_, target) in uses(&file, &module) {
            if target[0] == module[0] && target.len() > 1 && target[1] != module[1] {
                targets.insert(target[1].clone());
            }
        }
    }
    let mut circles: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for circle in circles_of(&graph) {
        let layer = circle[0].0.clone();
        circles.entry(layer).or_default().push(circle.into_iter().map(|(_, m)| m).collect());
    }
    let known: BTreeSet<&str> = KNOWN_CIRCLES.iter().map(|(layer, _)| *layer).collect();
    let unexpected: Vec<String> = circles
        .iter()
        .filter(|(layer, _)| !known.contains(layer.as_str()))
        .flat_map(|(layer, cs)| cs.iter().map(move |c| format!("{layer}: {}", c.join(" ⇄ "))))
        .collect();
    assert!(unexpected.is_empty(), "modules that use each other in a circle:\n{}", unexpected.join("\n"));
    let paid: Vec<&&str> = known.iter().filter(|layer| !circles.contains_key(**layer)).collect();
    assert!(paid.is_empty(), "no circle is left in {paid:?}: take it off KNOWN_CIRCLES");
}

/// The layers, bottom first, from the ```layers block of docs/ARCHITECTURE.md: `a → b c → d`
/// puts `b` and `c` on one level.
fn layer_order() -> BTreeMap<String, usize> {
    let doc = fs::read_to_string("docs/ARCHITECTURE.md").expect("docs/ARCHITECTURE.md");
    let block = doc.split("```layers\n").nth(1).and_then(|rest| rest.split("```").next());
    let block = block.expect("docs/ARCHITECTURE.md has a ```layers block");
    let order: BTreeMap<String, usize> = block
        .split('→')
        .enumerate()
        .flat_map(|(level, names)| names.split_whitespace().map(move |name| (name.to_owned(), level)))
        .collect();
    for name in order.keys() {
        assert!(is_module(name), "the layer `{name}` of docs/ARCHITECTURE.md is no module under src/");
    }
    for entry in fs::read_dir("src").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let skip = ["lib", "bin"].contains(&name.as_str()) || path.extension().is_some_and(|e| e != "rs");
        assert!(skip || order.contains_key(&name), "src/{name} is not in the layers of docs/ARCHITECTURE.md");
    }
    order
}

fn is_module(name: &str) -> bool {
    Path::new("src").join(name).is_dir() || Path::new("src").join(format!("{name}.rs")).is_file()
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// `src/present/tools/bash.rs` → `["present", "tools", "bash"]`; `None` for the crate's root and
/// its binaries, which may use anything.
fn module_of(file: &Path) -> Option<Vec<String>> {
    let relative = file.strip_prefix("src").ok()?;
    let mut parts: Vec<String> =
        relative.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    match parts.first().map(String::as_str) {
        None | Some("lib") | Some("bin") => None,
        _ if file.ends_with("redact/build.rs") => None,
        _ => Some(parts),
    }
}

/// The paths `file` (module `module`) uses, each as its module path from the crate's root, with
/// its line number: `crate::a::b` as written, `super::x` resolved against `module`. The file's
/// `mod tests` is left out, and so are comments.
fn uses(file: &Path, module: &[String]) -> Vec<(usize, Vec<String>)> {
    let text = fs::read_to_string(file).unwrap();
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("mod tests") {
            break;
        }
        let code = line.split("//").next().unwrap_or_default();
        for (at, _) in code.match_indices("crate::") {
            if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            found.push((number + 1, path_at(&code[at + "crate::".len()..])));
        }
        for (at, _) in code.match_indices("super::") {
            if code[..at].ends_with("super::")
                || code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            // `super` is the parent of the file's module (of the folder, for a `mod.rs`).
            let mut base: Vec<String> = module.to_vec();
            base.pop();
            let mut rest = &code[at + "super::".len()..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            let mut path = base;
            path.extend(path_at(rest));
            if !path.is_empty() {
                found.push((number + 1, path));
            }
        }
    }
    found.retain(|(_, path)| !path.is_empty());
    found
}

/// The module names at the start of `text`: `a::b::{c, d}` → `["a", "b"]`.
fn path_at(text: &str) -> Vec<String> {
    let mut path = Vec::new();
    let mut rest = text;
    loop {
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() || name.starts_with(char::is_uppercase) {
            break;
        }
        path.push(name.to_owned());
        match rest[end..].strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    path
}

/// The circles of `graph` (its strongly connected parts of more than one module), by Tarjan's
/// algorithm.
fn circles_of(graph: &BTreeMap<(String, String), BTreeSet<String>>) -> Vec<Vec<(String, String)>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<(String, String), BTreeSet<String>>,
        index: BTreeMap<(String, String), usize>,
        low: BTreeMap<(String, String), usize>,
        stack: Vec<(String, String)>,
        circles: Vec<Vec<(String, String)>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, node: &(String, String)) {
            let n = self.index.len();
            self.index.insert(node.clone(), n);
            self.low.insert(node.clone(), n);
            self.stack.push(node.clone());
            let graph = self.graph;
            for next in graph.get(node).into_iter().flatten() {
                let next = (node.0.clone(), next.clone());
                if !graph.contains_key(&next) {
                    continue;
                }
                if !self.index.contains_key(&next) {
                    self.visit(&next);
                    let low = self.low[node].min(self.low[&next]);
                    self.low.insert(node.clone(), low);
                } else if self.stack.contains(&next) {
                    let low = self.low[node].min(self.index[&next]);
                    self.low.insert(node.clone(), low);
                }
            }
            if self.low[node] == self.index[node] {
                let at = self.stack.iter().position(|n| n == node).unwrap();
                let circle = self.stack.split_off(at);
                if circle.len() > 1 {
                    self.circles.push(circle);
                }
            }
        }
    }
    let mut walk =
        Walk { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), circles: Vec::new() };
    for node in graph.keys() {
        if !walk.index.contains_key(node) {
            walk.visit(node);
        }
    }
    walk.circles
}
