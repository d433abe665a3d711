//! The conversation as a virtualized list: only the rows on screen (and a margin) exist in the
//! DOM. Row heights are estimated until measured; a ResizeObserver measures every rendered row,
//! so opening a panel or an image loading moves what follows it.

use std::sync::Arc;

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::item::row_view;
use super::state::{use_viewer, Viewer};
use crate::normalize::fxhash::FxMap;
use crate::normalize::{Generation, Session, Workspace};
use crate::present::item::{item_view, ItemView};
use crate::present::rows::{Row, ThreadRef};
use crate::present::when::Above;

/// Rows kept rendered above and below the viewport, in pixels.
const MARGIN: f64 = 800.0;
const ESTIMATE: f64 = 56.0;

/// Heights by row, and where each row starts.
#[derive(Default)]
struct Layout {
    rows: Vec<Row>,
    index: FxMap<Row, usize>,
    heights: Vec<f64>,
    /// `offsets[i]` is where row i starts; one more entry for the end.
    offsets: Vec<f64>,
    measured: FxMap<Row, f64>,
}

impl Layout {
    fn set_rows(&mut self, rows: Vec<Row>) {
        self.index = rows.iter().enumerate().map(|(i, r)| (*r, i)).collect();
        self.heights = rows.iter().map(|r| self.measured.get(r).copied().unwrap_or(ESTIMATE)).collect();
        self.rows = rows;
        self.recompute(0);
    }

    fn recompute(&mut self, from: usize) {
        self.offsets.resize(self.heights.len() + 1, 0.0);
        for i in from..self.heights.len() {
            self.offsets[i + 1] = self.offsets[i] + self.heights[i];
        }
    }

    fn total(&self) -> f64 {
        self.offsets.last().copied().unwrap_or(0.0)
    }

    /// The rows that overlap `top..bottom`.
    fn range(&self, top: f64, bottom: f64) -> std::ops::Range<usize> {
        let n = self.rows.len();
        let start = self.offsets.partition_point(|&o| o <= top).saturating_sub(1).min(n);
        let end = self.offsets.partition_point(|&o| o < bottom).min(n);
        start..end.max(start)
    }

    /// Records a measured height; returns the row's index and how much it grew, if it changed.
    fn measure(&mut self, row: Row, height: f64) -> Option<(usize, f64)> {
        self.measured.insert(row, height);
        let i = *self.index.get(&row)?;
        let grew = height - self.heights[i];
        if grew.abs() < 0.5 {
            return None;
        }
        self.heights[i] = height;
        Some((i, grew))
    }
}

/// What each row on screen shows, and since when: the workspace it was last drawn from (by its
/// generation), and a number that changes whenever what it shows does.
#[derive(Default)]
struct Drawn {
    rows: FxMap<Row, (Generation, u64, Arc<ItemView>)>,
    next: u64,
}

impl Drawn {
    /// The views of `rows` in `ws`, each with the number of its drawing: the same as before for a
    /// row that shows the same as it did. Rows no longer on screen are forgotten.
    fn views(
        &mut self,
        ws: &Arc<Workspace>,
        session: &Session,
        rows: Vec<Row>,
    ) -> Vec<(Row, u64, Arc<ItemView>)> {
        let mut kept = FxMap::default();
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let before = self.rows.remove(&row);
            let (since, view) = match before {
                Some((drawn_from, since, view)) if drawn_from == ws.generation => (since, view),
                before => {
                    let Some(view) = item_view(ws, session, row).map(Arc::new) else { continue };
                    match before {
                        Some((_, since, old)) if old == view => (since, view),
                        _ => {
                            self.next += 1;
                            (self.next, view)
                        }
                    }
                }
            };
            out.push((row, since, view.clone()));
            kept.insert(row, (ws.generation, since, view));
        }
        self.rows = kept;
        out
    }
}

fn row_key(row: &Row) -> String {
    let thread = match row.thread {
        ThreadRef::Main => "m".to_owned(),
        ThreadRef::Branch(b) => format!("b{b}"),
        ThreadRef::Agent(a) => format!("a{a}"),
    };
    format!("{thread}:{}:{}:{}", row.item, row.depth, row.copied)
}

fn parse_key(key: &str) -> Option<Row> {
    let mut parts = key.split(':');
    let thread = parts.next()?;
    let thread = match thread.split_at(1) {
        ("m", _) => ThreadRef::Main,
        ("b", n) => ThreadRef::Branch(n.parse().ok()?),
        ("a", n) => ThreadRef::Agent(n.parse().ok()?),
        _ => return None,
    };
    let (item, depth) = (parts.next()?.parse().ok()?, parts.next()?.parse().ok()?);
    Some(Row { copied: parts.next()?.parse().ok()?, ..Row::new(thread, item, depth) })
}

/// What the parts of the list share: its element, the rows' layout, and where it is scrolled to.
/// Every field is a handle, so the whole is `Copy` and each behaviour below holds its own.
#[derive(Clone, Copy)]
struct Scroller {
    container: NodeRef<Div>,
    layout: StoredValue<Layout, LocalStorage>,
    /// Changes whenever the layout does, so what reads the layout runs again.
    version: RwSignal<u64>,
    scroll_top: RwSignal<f64>,
    viewport: RwSignal<f64>,
}

impl Scroller {
    /// A list of `rows`, laid out again whenever they change.
    fn new(rows: ReadSignal<Vec<Row>>) -> Self {
        let scroller = Scroller {
            container: NodeRef::new(),
            layout: StoredValue::new_local(Layout::default()),
            version: RwSignal::new(0),
            scroll_top: RwSignal::new(0.0),
            viewport: RwSignal::new(900.0),
        };
        Effect::new(move |_| {
            let rows = rows.get();
            scroller.layout.update_value(|l| l.set_rows(rows));
            scroller.version.update(|v| *v += 1);
        });
        scroller
    }

    /// Scrolls `el` to `y`, and notes where it ended up (the browser clamps it).
    fn scroll_to(self, el: &web_sys::HtmlDivElement, y: f64) {
        el.set_scroll_top(y as i32);
        self.scroll_top.set(el.scroll_top() as f64);
    }

    /// Scrolls `el` so that `y` is a little below its top.
    fn scroll_near(self, el: &web_sys::HtmlDivElement, y: f64) {
        self.scroll_to(el, (y - 80.0).max(0.0));
    }

    fn at_end(self, el: &web_sys::HtmlDivElement) -> bool {
        el.scroll_top() as f64 + el.client_height() as f64 >= self.layout.with_value(Layout::total) - 4.0
    }

    /// The rows near the view, with the heights of the space above and below them.
    fn window(self) -> Memo<(Vec<Row>, f64, f64)> {
        Memo::new(move |_| {
            self.version.track();
            let top = self.scroll_top.get();
            let height = self.viewport.get();
            self.layout.with_value(|l| {
                let range = l.range((top - MARGIN).max(0.0), top + height + MARGIN);
                let before = l.offsets.get(range.start).copied().unwrap_or(0.0);
                let after = l.total() - l.offsets.get(range.end).copied().unwrap_or(0.0);
                (l.rows[range].to_vec(), before, after.max(0.0))
            })
        })
    }
}

/// The conversation's rows, virtualized, with what follow mode adds below them: the button to
/// the rows that arrived out of view.
#[component]
pub(crate) fn ConversationList(
    /// The rows to show, in order.
    rows: ReadSignal<Vec<Row>>,
    /// What is said above some rows: the date where it changes, a long pause.
    above: ReadSignal<FxMap<Row, Above>>,
) -> impl IntoView {
    let viewer = use_viewer();
    let scroller = Scroller::new(rows);
    let pinned = use_pin_to_target(viewer, scroller);
    let observer = use_row_observer(scroller, pinned);
    use_fresh_rows(viewer, scroller);
    watch_reading(viewer, scroller);
    super::marks::watch(viewer, scroller.container);
    let following = viewer.following;
    // Scrolling by hand (wheel, touch, keys, the scroll bar) is the reader taking over from the
    // pinned target, and from "keep newest in view".
    let take_over = Callback::new(move |()| {
        pinned.set_value(false);
        if following.stick.get_untracked() {
            following.stick.set(false);
        }
    });
    let on_scroll = Callback::new(move |el: web_sys::HtmlDivElement| {
        if following.fresh.get_untracked() > 0 && scroller.at_end(&el) {
            following.fresh.set(0);
        }
    });
    view! {
        <VirtualList scroller=scroller rows=rows above=above observer=observer take_over=take_over on_scroll=on_scroll />
        {move || (following.fresh.get() > 0).then(|| view! {
            <button class="cctv-fresh" on:click=move |_| show_fresh(viewer, scroller)>{format!("{} new ↓", following.fresh.get())}</button>
        })}
    }
}

/// How far below the top of the list the row being read is looked for: a link or a step to a
/// row puts it 80 px below the top, with the end of the row before above it.
const READING_LINE: f64 = 120.0;

/// Keeps [`Viewer::reading`] the line of the row across the reading line, or of the nearest row
/// of the main conversation (or the branch) above it when that is a sub-agent's; none at the end
/// of the list, where the reader has read it all (what the last lines say holds, though they
/// are no rows: the model ended the conversation).
fn watch_reading(viewer: Viewer, scroller: Scroller) {
    Effect::new(move |_| {
        scroller.version.track();
        let top = scroller.scroll_top.get();
        let bottom = top + scroller.viewport.get();
        let y = top + READING_LINE;
        let Some(ws) = viewer.workspace.get_untracked() else { return };
        let Some(s) = ws.sessions.get(viewer.session.get_untracked()) else { return };
        let line = scroller.layout.with_value(|l| {
            if bottom >= l.total() - 4.0 {
                return None;
            }
            let at = l.range(y, y).start;
            let row = l
                .rows
                .get(..=at.min(l.rows.len().checked_sub(1)?))?
                .iter()
                .rev()
                .find(|r| matches!(r.thread, ThreadRef::Main | ThreadRef::Branch(_)))?;
            Some(s.item(row.thread, row.item)?.line)
        });
        if viewer.reading.get_untracked() != line {
            viewer.reading.set(line);
        }
    });
}

/// The scrolled element: spacers as tall as the rows not drawn, and the rows near the view.
#[component]
fn VirtualList(
    /// Its element, layout and scroll position.
    scroller: Scroller,
    /// Every row, drawn or not.
    rows: ReadSignal<Vec<Row>>,
    /// What is said above some rows.
    above: ReadSignal<FxMap<Row, Above>>,
    /// Measures every row drawn.
    observer: StoredValue<Option<web_sys::ResizeObserver>, LocalStorage>,
    /// The reader scrolls by hand.
    take_over: Callback<()>,
    /// The list scrolled, for any reason, after its position is noted.
    on_scroll: Callback<web_sys::HtmlDivElement>,
) -> impl IntoView {
    let viewer = use_viewer();
    let session = viewer.session.get_untracked();
    let Scroller { container, scroll_top, viewport, .. } = scroller;
    let window_rows = scroller.window();
    let shown = drawn_rows(viewer, session, window_rows);
    let scrolled = move |_| {
        if let Some(el) = container.get_untracked() {
            scroll_top.set(el.scroll_top() as f64);
            viewport.set(el.client_height() as f64);
            on_scroll.run(el);
        }
    };
    use_viewport_observer(scroller);
    view! {
        <div
            class="cctv-list"
            node_ref=container
            on:scroll=scrolled
            on:wheel=move |_| take_over.run(())
            on:touchstart=move |_| take_over.run(())
            on:pointerdown=move |_| take_over.run(())
            on:keydown=move |_| take_over.run(())
            tabindex="0"
        >
            <div class="cctv-list__spacer" style=move || format!("height: {}px", window_rows.with(|w| w.1))></div>
            <div role="list" aria-label="conversation rows">
            <For
                each=move || shown().unwrap_or_default()
                key=|(highlighted, row, since, _)| (*highlighted, *row, *since)
                children=move |(_, row, _, item): DrawnRow| view! {
                    <ListRow row=row item=item session=session above=above observer=observer />
                }
            />
            </div>
            <div class="cctv-list__spacer" style=move || format!("height: {}px", window_rows.with(|w| w.2))></div>
            {move || rows.with(Vec::is_empty).then(|| view! { <div class="cctv-empty">"Nothing to show with these filters."</div> })}
        </div>
    }
}

/// A row drawn: whether the grammars were there, the row, the number of its drawing (these three
/// key it), and what it shows.
type DrawnRow = (bool, Row, u64, Arc<ItemView>);

/// What the rows near the view show.
///
/// When more of the files arrives (a large file read on, a followed session growing), a row on
/// screen is drawn again only if it shows something else now (a call's result arrived): the
/// others keep their elements, and with them the reader's selection and open details. All are
/// drawn again when the grammars arrive, with their code highlighted.
fn drawn_rows(
    viewer: Viewer,
    session: usize,
    window_rows: Memo<(Vec<Row>, f64, f64)>,
) -> impl Fn() -> Option<Vec<DrawnRow>> + Copy {
    let drawn = StoredValue::new_local(Drawn::default());
    move || {
        let ws = viewer.workspace.get()?;
        let highlighted = viewer.grammars.get();
        let rows = window_rows.get().0;
        let s = ws.sessions.get(session)?;
        Some(
            drawn
                .try_update_value(|d| d.views(&ws, s, rows))?
                .into_iter()
                .map(|(row, since, view)| (highlighted, row, since, view))
                .collect::<Vec<_>>(),
        )
    }
}

/// One row, measured by `observer` for as long as it is drawn.
#[component]
fn ListRow(
    row: Row,
    /// What it shows.
    item: Arc<ItemView>,
    /// The session it is of.
    session: usize,
    /// What is said above some rows.
    above: ReadSignal<FxMap<Row, Above>>,
    /// The list's observer of row sizes.
    observer: StoredValue<Option<web_sys::ResizeObserver>, LocalStorage>,
) -> impl IntoView {
    let viewer = use_viewer();
    let node = NodeRef::<Div>::new();
    on_cleanup(move || {
        if let Some(el) = node.get_untracked() {
            observer.with_value(|o| {
                if let Some(o) = o {
                    o.unobserve(&el);
                }
            });
        }
    });
    node.on_load(move |el| {
        observer.with_value(|o| {
            if let Some(o) = o {
                o.observe(&el);
            }
        });
    });
    view! {
        <div class="cctv-row" role="listitem" data-row=row_key(&row) node_ref=node>
            {move || above.with(|a| a.get(&row).cloned()).map(|Above { date, gap }| view! {
                {date.map(|d| view! { <h2 class="cctv-day">{d}</h2> })}
                {gap.map(|g| view! { <div class="cctv-gap">{g}</div> })}
            })}
            {viewer.workspace.with_untracked(|ws| ws.as_deref().map(|ws| row_view(ws, session, row, Arc::unwrap_or_clone(item))))}
        </div>
    }
}

/// Keeps the scroller's viewport the list's height: when it is first laid out, and when the
/// window is resized. Read by an observer, after the browser has laid the page out: read in the
/// task that drew the list, the page's whole new layout was made then and there.
fn use_viewport_observer(scroller: Scroller) {
    let Scroller { container, viewport, .. } = scroller;
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| {
        if let Some(el) = container.try_get_untracked().flatten() {
            let height = el.client_height() as f64;
            if viewport.try_get_untracked().is_some_and(|v| v != height) {
                viewport.set(height);
            }
        }
    });
    let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
        // Read once, then: the rows near a view of the height it had are drawn.
        container.on_load(move |el| viewport.set(el.client_height() as f64));
        return;
    };
    let observer = StoredValue::new_local(observer);
    container.on_load(move |el| observer.with_value(|o| o.observe(&el)));
    // The closure is called for as long as the observer observes, and goes with it.
    let callback = StoredValue::new_local(Some(callback));
    on_cleanup(move || {
        observer.try_with_value(web_sys::ResizeObserver::disconnect);
        callback.try_set_value(None);
    });
}

/// One observer for every rendered row: a row that changes size moves the rows after it, and
/// what the reader sees stays in place (unless `pinned`: the pinned target is kept in view by
/// [`use_pin_to_target`] instead).
fn use_row_observer(
    scroller: Scroller,
    pinned: StoredValue<bool>,
) -> StoredValue<Option<web_sys::ResizeObserver>, LocalStorage> {
    let Scroller { container, layout, version, .. } = scroller;
    let observer = StoredValue::new_local(None::<web_sys::ResizeObserver>);
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let list = container.try_get_untracked().flatten();
        let top = list.as_ref().map_or(0.0, |el| el.scroll_top() as f64);
        let Some((from, above_grew)) = measure(layout, &entries, top) else { return };
        layout.update_value(|l| l.recompute(from));
        if above_grew != 0.0 && pinned.try_get_value() == Some(false) {
            if let Some(el) = &list {
                scroller.scroll_to(el, (top + above_grew).max(0.0));
            }
        }
        version.update(|v| *v += 1);
    });
    if let Ok(o) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        observer.set_value(Some(o));
    }
    // The observer calls back for as long as the list lives; the closure must too.
    callback.forget();
    observer
}

/// Records the heights the observer's `entries` report. Returns the first row whose height
/// changed, and how much the rows wholly above `top` grew: what is on screen moves down by that
/// much unless the view follows it. (A row partly on screen that grows, a panel opened in it,
/// grows downwards where the reader is looking, and moves nothing they see.)
fn measure(
    layout: StoredValue<Layout, LocalStorage>,
    entries: &js_sys::Array,
    top: f64,
) -> Option<(usize, f64)> {
    let mut changed = None::<usize>;
    let mut above_grew = 0.0;
    for entry in entries.iter() {
        let entry: web_sys::ResizeObserverEntry = entry.unchecked_into();
        let target = entry.target();
        let Some(row) = target.get_attribute("data-row").and_then(|k| parse_key(&k)) else { continue };
        let height = target.get_bounding_client_rect().height();
        if height <= 0.0 {
            continue;
        }
        let measured =
            layout.try_update_value(|l| l.measure(row, height).map(|(i, grew)| (i, grew, l.offsets[i])));
        if let Some((i, grew, start)) = measured.flatten() {
            changed = Some(changed.map_or(i, |c: usize| c.min(i)));
            if start + (height - grew) <= top {
                above_grew += grew;
            }
        }
    }
    changed.map(|from| (from, above_grew))
}

/// Scrolls to the target item when asked (search, links, keyboard), and keeps it there while the
/// rows above it are measured (their estimated heights would otherwise move it away), until the
/// reader scrolls. Returns whether it is pinned there.
fn use_pin_to_target(viewer: Viewer, scroller: Scroller) -> StoredValue<bool> {
    // The last scroll request this list acted on, and whether it still holds the target in view.
    let scrolled = StoredValue::new(0u64);
    let pinned = StoredValue::new(false);
    Effect::new(move |_| {
        let request = viewer.scroll_request.get();
        scroller.version.track();
        if scrolled.get_value() != request {
            scrolled.set_value(request);
            pinned.set_value(true);
        }
        if !pinned.get_value() {
            return;
        }
        let Some(target) = viewer.target.get_untracked() else { return };
        let Some(el) = scroller.container.get_untracked() else { return };
        let position = scroller.layout.with_value(|l| {
            let i = l.rows.iter().position(|r| r.at() == target)?;
            Some(l.offsets[i])
        });
        if let Some(y) = position {
            scroller.scroll_near(&el, y);
            scroller.viewport.set(el.client_height() as f64);
        }
    });
    pinned
}

/// A followed session: the newest row kept in view if the reader asks, and the rows that more of
/// the files brought after the last one counted until the reader scrolls down to them (rows that
/// grew inside an open sub-agent higher up are not "below"). The workspace is told apart by its
/// generation, only to see that it changed; the first drawing counts nothing.
fn use_fresh_rows(viewer: Viewer, scroller: Scroller) {
    let following = viewer.following;
    let Scroller { container, layout, version, .. } = scroller;
    let before = StoredValue::new(None::<(Option<Generation>, Option<Row>)>);
    Effect::new(move |_| {
        version.track();
        let (followed, stick) = (following.name.with(Option::is_some), following.stick.get());
        let Some(el) = container.get_untracked() else { return };
        let ws = viewer.workspace.with_untracked(|w| w.as_ref().map(|w| w.generation));
        let last = layout.with_value(|l| l.rows.last().copied());
        let was = before.get_value();
        before.set_value(Some((ws, last)));
        if !followed {
            return;
        }
        if stick {
            scroller.scroll_to(&el, layout.with_value(Layout::total));
        }
        if stick || scroller.at_end(&el) {
            following.fresh.set(0);
            return;
        }
        let Some((was_ws, Some(was_last))) = was else { return };
        if ws != was_ws {
            let after = layout.with_value(|l| l.index.get(&was_last).map(|&i| l.rows.len() - i - 1));
            following.fresh.update(|n| *n += after.unwrap_or(0));
        }
    });
}

/// Scrolls to the first of the rows that arrived out of view, and counts them seen.
fn show_fresh(viewer: Viewer, scroller: Scroller) {
    let following = viewer.following;
    let Some(el) = scroller.container.get_untracked() else { return };
    let y = scroller.layout.with_value(|l| {
        let first = l.rows.len().saturating_sub(following.fresh.get_untracked());
        l.offsets.get(first).copied().unwrap_or_else(|| l.total())
    });
    scroller.scroll_near(&el, y);
    following.fresh.set(0);
}
