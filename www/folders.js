// Folders opened with the File System Access API (Chromium): the handle is kept in IndexedDB, so
// a later visit can open the same folder again after one permission prompt. Nothing else is
// stored. src/ui/folders.rs calls these; they are JavaScript because walking a directory is an
// async iteration and IndexedDB an event API, both much plainer here than through web-sys.

const DB = "cctv";
const STORE = "handles";
const FOLDER = "folder";

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

function keep(handle) {
  return withStore("readwrite", (store) => store.put(handle, FOLDER));
}

async function kept() {
  return (await withStore("readonly", (store) => store.get(FOLDER))) ?? null;
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
