//! A folder of many sessions sorted onto a shelf: which files make each session (its own file,
//! its sub-agents', the files beside them), in which project folder, before a byte is read.
//!
//! Names say almost everything. `<project>/<session>.jsonl` is a session;
//! `<project>/<session>/subagents/…/agent-<id>.jsonl` one of its sub-agents, and the other files
//! under `<project>/<session>/` are beside it. Only the oldest layout's sub-agents,
//! `<project>/agent-<id>.jsonl`, say whose they are in their lines alone: they wait on the shelf
//! ([`Shelf::loose`]) until their first line is read ([`Shelf::place_loose`]).

use crate::catalog::summary::{Counts, Summary};
use crate::normalize::fxhash::FxMap;
use crate::normalize::{agent_id_of_name, beside::beside};

/// A file handed over: its path inside the folder, and its size.
#[derive(Clone, Debug, PartialEq)]
pub struct FileInfo {
    pub name: String,
    pub size: u64,
}

/// A session on the shelf.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listed {
    /// How links and the list name it: the session's id (its file's name until its lines say).
    pub key: String,
    /// The project folder it is in (`""` for files at the top of what was handed over).
    pub folder: String,
    /// Indices into [`Shelf::files`]: the session's own file (`None` when only its sub-agents'
    /// files are there), its sub-agents', and the files beside them.
    pub file: Option<usize>,
    pub agents: Vec<usize>,
    pub beside: Vec<usize>,
    /// What is known of it so far; `None` until its ends are read.
    pub summary: Option<Summary>,
    /// The session this one begins with a copy of (a resume, a background copy).
    pub continues: Option<usize>,
    /// Its files hold no Claude Code transcript (a `.jsonl` of something else): off the list.
    pub left_out: bool,
}

impl Listed {
    /// Every file of the session, its own first.
    pub fn files(&self) -> impl Iterator<Item = usize> + '_ {
        self.file.iter().chain(&self.agents).chain(&self.beside).copied()
    }

    /// The first and last activity, for sorting and for the list.
    pub fn last_ms(&self) -> Option<i64> {
        let s = self.summary.as_ref()?;
        s.last_ms.or(s.first_ms)
    }
}

/// A project folder and its sessions.
#[derive(Clone, Debug, PartialEq)]
pub struct Project {
    pub folder: String,
    /// The directory it stands for ([`crate::catalog::project::project_path`]).
    pub path: String,
    /// Indices into [`Shelf::sessions`], newest first.
    pub sessions: Vec<usize>,
    pub size: u64,
    pub last_ms: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shelf {
    pub files: Vec<FileInfo>,
    pub sessions: Vec<Listed>,
    /// Sub-agent files of the oldest layout, not yet placed.
    pub loose: Vec<usize>,
}

/// Folders under a session's own folder that hold its other files.
const MARKERS: [&str; 3] = ["subagents", "tool-results", "workflows"];

/// Which session a file's name puts it in, if any.
enum Place {
    /// A session's own file: (project folder, key).
    Own(String, String),
    /// Under a session's folder (a sub-agent's file, or one beside it): (project folder, key).
    Under(String, String),
    /// A sub-agent file of the oldest layout: its lines say whose it is.
    Loose,
    /// None (a README in the folder).
    Nowhere,
}

fn place(name: &str) -> Place {
    let (folder, base) = split_parent(name);
    let agent = agent_id_of_name(name).is_some();
    if beside(name).is_none() && !agent && base.ends_with(".jsonl") {
        return Place::Own(folder.to_owned(), base.trim_end_matches(".jsonl").to_owned());
    }
    let parts: Vec<&str> = name.split(['/', '\\']).collect();
    match parts.iter().position(|p| MARKERS.contains(p)).filter(|&m| m >= 1) {
        Some(marker) => Place::Under(parts[..marker - 1].join("/"), parts[marker - 1].to_owned()),
        None if agent && beside(name).is_none() => Place::Loose,
        None => Place::Nowhere,
    }
}

/// Whether files of these names hold more than one session (a folder of many opens on their
/// list): looked at only until a second is found, not sorted onto a shelf.
pub fn holds_many<'a>(names: impl IntoIterator<Item = &'a str>) -> bool {
    let mut first: Option<(String, String)> = None;
    for name in names {
        let key = match place(name) {
            Place::Own(folder, key) | Place::Under(folder, key) => (folder, key),
            Place::Loose => (String::new(), "\0loose".into()),
            Place::Nowhere => continue,
        };
        match &first {
            Some(seen) if *seen != key => return true,
            Some(_) => {}
            None => first = Some(key),
        }
    }
    false
}

impl Shelf {
    pub fn new(files: Vec<FileInfo>) -> Shelf {
        let mut shelf = Shelf { files, ..Shelf::default() };
        // Fx, not SipHash: tens of thousands of names, which took 10 ms in wasm.
        let mut at: FxMap<(String, String), usize> = FxMap::default();
        let mut others = Vec::new();
        for (index, file) in shelf.files.iter().enumerate() {
            if let Place::Own(folder, key) = place(&file.name) {
                at.insert((folder.clone(), key.clone()), shelf.sessions.len());
                shelf.sessions.push(Listed { key, folder, file: Some(index), ..Listed::default() });
            } else {
                others.push(index);
            }
        }
        for index in others {
            let name = &shelf.files[index].name;
            let agent = agent_id_of_name(name).is_some() && beside(name).is_none();
            let (folder, key) = match place(name) {
                Place::Under(folder, key) => (folder, key),
                Place::Loose => {
                    shelf.loose.push(index);
                    continue;
                }
                // A file beside no session (a README in the folder) is not part of any.
                Place::Own(..) | Place::Nowhere => continue,
            };
            let session = *at.entry((folder.clone(), key.clone())).or_insert_with(|| {
                shelf.sessions.push(Listed { key, folder, ..Listed::default() });
                shelf.sessions.len() - 1
            });
            let listed = &mut shelf.sessions[session];
            if agent {
                listed.agents.push(index);
            } else {
                listed.beside.push(index);
            }
        }
        shelf
    }

    /// Places a sub-agent file of the oldest layout with the session its lines name (or, if
    /// that session's file is not there, a session of its own, as the viewer does).
    pub fn place_loose(&mut self, file: usize, session_id: Option<&str>) {
        self.loose.retain(|&f| f != file);
        let (folder, base) = split_parent(&self.files[file].name);
        let key = session_id.map_or_else(|| base.trim_end_matches(".jsonl").to_owned(), str::to_owned);
        let found = self.sessions.iter().position(|s| s.folder == folder && s.key == key);
        let session = found.unwrap_or_else(|| {
            self.sessions.push(Listed { key, folder: folder.to_owned(), ..Listed::default() });
            self.sessions.len() - 1
        });
        self.sessions[session].agents.push(file);
    }

    /// The bytes of a session's files.
    pub fn size(&self, session: usize) -> u64 {
        self.sessions[session].files().map(|f| self.files[f].size).sum()
    }

    /// The sessions on the list (those not left out).
    pub fn listed(&self) -> usize {
        self.sessions.iter().filter(|s| !s.left_out).count()
    }

    /// Sets what is known of a session read whole that holds no conversation: nothing to count.
    pub fn set_empty(&mut self, session: usize) {
        let summary = self.sessions[session].summary.get_or_insert_default();
        summary.counts = Some(Counts::default());
    }

    /// Sets what is known of a session; its id, once its lines say it, becomes its key.
    pub fn set_summary(&mut self, session: usize, summary: Summary) {
        let listed = &mut self.sessions[session];
        if let Some(id) = summary.session_id.as_ref().filter(|id| !id.is_empty()) {
            listed.key = id.clone();
        }
        listed.summary = Some(summary);
    }

    /// Links each session that begins with a copy of another's lines to it: sessions that begin
    /// with the same line are one conversation, and the one that ended first is the original.
    pub fn link_continued(&mut self) {
        let mut by_first: FxMap<&str, Vec<usize>> = FxMap::default();
        for (i, s) in self.sessions.iter().enumerate().filter(|(_, s)| !s.left_out) {
            if let Some(uuid) = s.summary.as_ref().and_then(|s| s.first_uuid.as_deref()) {
                by_first.entry(uuid).or_default().push(i);
            }
        }
        let mut links = Vec::new();
        for group in by_first.values().filter(|g| g.len() > 1) {
            let ended = |i: usize| self.sessions[i].last_ms().unwrap_or(i64::MAX);
            let original = *group.iter().min_by_key(|&&i| (ended(i), i)).expect("a group has sessions");
            links.extend(group.iter().filter(|&&i| i != original).map(|&i| (i, original)));
        }
        for s in &mut self.sessions {
            s.continues = None;
        }
        for (copy, original) in links {
            self.sessions[copy].continues = Some(original);
        }
    }

    /// The projects, the one last active first; each with its sessions, newest first.
    pub fn projects(&self) -> Vec<Project> {
        let mut projects: Vec<Project> = Vec::new();
        let mut at: FxMap<&str, usize> = FxMap::default();
        for (i, s) in self.sessions.iter().enumerate().filter(|(_, s)| !s.left_out) {
            let p = *at.entry(&s.folder).or_insert_with(|| {
                projects.push(Project {
                    folder: s.folder.clone(),
                    path: String::new(),
                    sessions: Vec::new(),
                    size: 0,
                    last_ms: None,
                });
                projects.len() - 1
            });
            let project = &mut projects[p];
            project.sessions.push(i);
            project.size += self.size(i);
            project.last_ms = project.last_ms.max(s.last_ms());
        }
        for project in &mut projects {
            project.sessions.sort_by_key(|&i| std::cmp::Reverse(self.sessions[i].last_ms()));
            let cwds =
                project.sessions.iter().filter_map(|&i| self.sessions[i].summary.as_ref()?.cwd.as_deref());
            let folder = project.folder.rsplit('/').next().unwrap_or_default();
            project.path =
                match (folder.is_empty(), crate::catalog::project::project_path(folder, cwds.clone())) {
                    // Files at the top: the folder's name is not known, its sessions' directory is.
                    (true, _) => cwds.clone().next().unwrap_or("(this folder)").to_owned(),
                    (false, path) => path,
                };
        }
        projects.sort_by_key(|p| std::cmp::Reverse(p.last_ms));
        projects
    }
}

/// `a/b/c.jsonl` -> (`a/b`, `c.jsonl`).
fn split_parent(name: &str) -> (&str, &str) {
    name.rsplit_once(['/', '\\']).unwrap_or(("", name))
}
