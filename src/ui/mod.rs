//! Leptos components: they turn what `present` decided into elements. Everything here needs a
//! DOM; everything they show is computed by `model`, `normalize` and `present`, which do not.

mod app;
mod content;
mod copy;
pub mod embed;
mod even_rows;
mod folders;
mod follow;
mod hooks;
mod item;
mod library;
mod library_view;
mod list;
pub mod load;
mod marks;
mod markup;
mod navigation;
mod overview;
mod panel;
mod searching;
mod share;
pub mod shared;
mod side;
pub mod state;
mod style;
mod tools;
mod top;
mod warm;

pub use app::App;
