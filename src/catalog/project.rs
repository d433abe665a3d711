//! Project folders: Claude Code keeps a project's sessions in `~/.claude/projects/<folder>/`,
//! where `<folder>` is the directory it ran in with every character that is not an ASCII letter
//! or digit turned into `-` (`/Users/me/src/app` -> `-Users-me-src-app`). That cannot be undone
//! exactly (`my-app` and `my/app` and `my.app` are all `my-app`), so the path shown is a
//! session's own `cwd` where one fits the folder, and the folder name decoded only without one.

/// The folder Claude Code keeps the sessions run in `path` in.
pub(crate) fn folder_of(path: &str) -> String {
    path.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// The path a project folder's name stands for, read as the most likely one: dashes as
/// separators; `C--Users-me` as the Windows path `C:\Users\me`.
pub(crate) fn decode_folder(folder: &str) -> String {
    let bytes = folder.as_bytes();
    if bytes.len() >= 3 && bytes[0].is_ascii_alphabetic() && &bytes[1..3] == b"--" {
        return format!("{}:\\{}", &folder[..1], folder[3..].replace('-', "\\"));
    }
    if folder.starts_with('-') {
        return folder.replace('-', "/");
    }
    // Not a name Claude Code made: shown as it is.
    folder.to_owned()
}

/// The path to show for `folder`: the first of `cwds` (the working directories its sessions
/// say they started in) that is exactly what the folder stands for, else the decoded name.
pub(crate) fn project_path<'a>(folder: &str, cwds: impl IntoIterator<Item = &'a str>) -> String {
    cwds.into_iter().find(|cwd| folder_of(cwd) == folder).map_or_else(|| decode_folder(folder), str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_name_reads_back_as_a_path() {
        assert_eq!(decode_folder("-Users-me-src-app"), "/Users/me/src/app");
        assert_eq!(decode_folder("C--Users-me-app"), "C:\\Users\\me\\app");
        assert_eq!(decode_folder("sample-project"), "sample-project");
    }

    #[test]
    fn a_sessions_own_directory_is_preferred_where_it_fits_the_folder() {
        // Dashes and dots in the real path are lost in the folder name; the cwd keeps them.
        let folder = folder_of("/Users/dain/workspace/claude-code-log.sample");
        assert_eq!(folder, "-Users-dain-workspace-claude-code-log-sample");
        assert_eq!(decode_folder(&folder), "/Users/dain/workspace/claude/code/log/sample");
        let cwds = [
            "/Users/dain/workspace/claude-code-log.sample/sub",
            "/Users/dain/workspace/claude-code-log.sample",
        ];
        assert_eq!(project_path(&folder, cwds), "/Users/dain/workspace/claude-code-log.sample");
        // A session that ran in a sub-folder does not name the project.
        assert_eq!(project_path(&folder, ["/elsewhere"]), "/Users/dain/workspace/claude/code/log/sample");
        assert_eq!(project_path("C--Users-me-my-app", ["C:\\Users\\me\\my-app"]), "C:\\Users\\me\\my-app");
        assert_eq!(folder_of("C:\\Users\\me\\my_app"), "C--Users-me-my-app");
    }
}
