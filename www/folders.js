// Files and folders opened with the File System Access API (Chromium): a folder opened, and a
// session followed as it is written. Their handles are kept in IndexedDB, so a later visit can
// open the same again after one permission prompt. Nothing else is stored. src/browser/folders.rs
// calls these; they are JavaScript because walking a directory is an async iteration and
// IndexedDB an event API, both much plainer here than through web-sys.

const DB = "cctv";
const STORE = "handles";
const FOLDER = "folder";
const FOLLOWED = "followed";

/** Whether this browser can give a folder's handle. */
export function canPickFolder() {
  return typeof globalThis.showDirectoryPicker === "function";
}

/** Asks for a folder; keeps its handle. Resolves to its files as [path, File] pairs (paths from
 *  the folder's own name, as a folder input names them), or null when the reader cancelled. */
export async function pickFolder() {
  let handle;
  try {
    handle = await globalThis.showDirectoryPicker({ id: "cctv-sessions", mode: "read" });
  } catch (e) {
    if (e.name === "AbortError") return null;
    throw e;
  }
  await keep(handle).catch(() => {});
  return filesOf(handle, handle.name);
}

/** The name of the folder kept from an earlier visit, or null. */
export async function keptFolder() {
  const handle = await kept().catch(() => null);
  return handle ? handle.name : null;
}

/** The kept folder's files (see pickFolder), once the reader allows reading it again. */
export async function reopenFolder() {
  const handle = await kept();
  if (!handle) throw new Error("no folder was kept");
  const mode = { mode: "read" };
  if ((await handle.queryPermission(mode)) !== "granted" && (await handle.requestPermission(mode)) !== "granted") {
    throw new Error("reading the folder was not allowed");
  }
  try {
    // The folder itself: gone, it is not offered again.
    await handle.values().next();
  } catch (e) {
    if (e.name !== "NotFoundError") throw e;
    await withStore("readwrite", (store) => store.delete(FOLDER)).catch(() => {});
    throw new Error("the folder is no longer there");
  }
  return filesOf(handle, handle.name);
}

/** Every file under `dir`, each directory's entries fetched at once. */
async function filesOf(dir, path) {
  const files = [];
  const folders = [];
  for await (const entry of dir.values()) {
    const at = `${path}/${entry.name}`;
    // A file removed (or unreadable) while the folder is read is left out, not the folder.
    if (entry.kind === "file") files.push(entry.getFile().then((file) => [at, file], () => null));
    else folders.push(filesOf(entry, at).catch(() => []));
  }
  const own = (await Promise.all(files)).filter(Boolean);
  return own.concat(...(await Promise.all(folders)));
}

function keep(handle, key = FOLDER) {
  return withStore("readwrite", (store) => store.put(handle, key));
}

async function kept(key = FOLDER) {
  return (await withStore("readonly", (store) => store.get(key))) ?? null;
}

// Following. What is followed is a handle: a project folder, whose newest session is followed
// with everything in its `<uuid>/` folder (sub-agents, their metadata, saved outputs), or a
// session's file the installed app was opened with (no sub-agents: a file's handle gives no
// access to the folder beside it).

/** Whether this browser can follow a file as it grows. */
export function canFollow() {
  return typeof globalThis.showDirectoryPicker === "function";
}

/** Asks for a project folder; keeps its handle. Resolves to the handle, or null when the reader
 *  cancelled. */
export async function pickToFollow() {
  let handle;
  try {
    handle = await globalThis.showDirectoryPicker({ id: "cctv-follow", mode: "read" });
  } catch (e) {
    if (e.name === "AbortError") return null;
    throw e;
  }
  await keep(handle, FOLLOWED).catch(() => {});
  return handle;
}

/** Keeps `handle` as the one followed last (a file opened from the desktop). */
export async function keepFollowed(handle) {
  await keep(handle, FOLLOWED).catch(() => {});
}

/** The name of what was followed last, or null. */
export async function keptFollowed() {
  const handle = await kept(FOLLOWED).catch(() => null);
  return handle ? handle.name : null;
}

/** What was followed last, once the reader allows reading it again. */
export async function reopenFollowed() {
  const handle = await kept(FOLLOWED);
  if (!handle) throw new Error("nothing was followed");
  const mode = { mode: "read" };
  if ((await handle.queryPermission(mode)) !== "granted" && (await handle.requestPermission(mode)) !== "granted") {
    throw new Error("reading it was not allowed");
  }
  return handle;
}

/** The followed session's files now, as [path, File] pairs (paths relative to the project
 *  folder). For a folder, the newest session directly in it is chosen on the first call, then
 *  kept (`chosen` is that session's file name; pass what the first call resolved to). */
export async function followedFiles(handle, chosen) {
  if (handle.kind === "file") return [[handle.name, await handle.getFile()]];
  let name = chosen;
  if (!name) {
    let newest = null;
    for await (const entry of handle.values()) {
      if (!isSession(entry)) continue;
      const file = await entry.getFile().catch(() => null);
      if (file && (!newest || file.lastModified > newest.lastModified)) newest = file;
    }
    if (!newest) throw new Error(`no session file (.jsonl) in the folder ${handle.name}`);
    name = newest.name;
  }
  const session = await (await handle.getFileHandle(name)).getFile();
  let inside = [];
  try {
    const folder = await handle.getDirectoryHandle(name.slice(0, -".jsonl".length));
    inside = await filesOf(folder, folder.name);
  } catch (e) {
    // No sub-agent has written anything yet.
    if (e.name !== "NotFoundError") throw e;
  }
  return [[name, session], ...inside];
}

/** The names of the sessions directly in a followed project folder (none for a file): one that was
 *  not there before is a session Claude Code has started since (`/clear`, a new run). Only names
 *  are read, so asking is cheap however many sessions the folder holds. */
export async function sessionNames(handle) {
  const names = [];
  if (handle.kind !== "directory") return names;
  for await (const entry of handle.values()) if (isSession(entry)) names.push(entry.name);
  return names;
}

/** Of `names` (sessions in the folder), the one written to last, leaving out empty files (a session
 *  Claude Code has created but not written yet); null when none has bytes. */
export async function newestSession(handle, names) {
  let newest = null;
  for (const name of names) {
    const file = await handle
      .getFileHandle(name)
      .then((h) => h.getFile())
      .catch(() => null);
    if (file?.size && (!newest || file.lastModified > newest.lastModified)) newest = file;
  }
  return newest?.name ?? null;
}

/** A session's transcript, directly in a project folder (legacy sub-agents are `agent-*.jsonl`). */
function isSession(entry) {
  return entry.kind === "file" && entry.name.endsWith(".jsonl") && !entry.name.startsWith("agent-");
}

/** Files that `launchQueue` handed over (cctv installed, opened from the desktop). */
export function onLaunch(open) {
  globalThis.launchQueue?.setConsumer((params) => {
    if (params.files?.length) open(params.files);
  });
}

/** The result of `ask(store)`, in a connection closed after it. */
async function withStore(mode, ask) {
  const opening = indexedDB.open(DB, 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
  const db = await done(opening);
  try {
    return await done(ask(db.transaction(STORE, mode).objectStore(STORE)));
  } finally {
    db.close();
  }
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
