//! What leaves the app: a session or a turn as Markdown ([`to_markdown`]), a self-contained HTML
//! page that opens the viewer on its data ([`to_html`]), and sharing with what the reader chose to
//! mask taken out of every byte ([`share`]). Each export walks what `present` says, so it says
//! what the viewer says.

pub mod inert;
pub mod share;
pub mod to_html;
pub mod to_markdown;
