//! `croupier-wal`: SQLite's default VFS ("unix"), except that a connection's writes to its
//! write-ahead log are gathered in memory and reach the file in one `pwrite` per commit.
//!
//! Why (issue 23, the wallet's real path): SQLite writes every frame of a commit with two
//! `pwrite` calls, its 24-byte header and its page, each straddling two of the kernel's page-cache
//! pages. Under the wallet's load the one writer's commits wrote some 65,000 frames a second, and
//! a fifth of that thread's time went to those 130,000 system calls (`perf`, `/proc/…/io`
//! `syscw`, 2026-11-29). Gathered, a commit of a few hundred frames is one call.
//!
//! What stays as without it — the file ends up with the same bytes in the same order:
//!
//! - Writes to the log are gathered only while each follows the last one (a log is written from
//!   front to back); any other write, and every read, sync, truncation, size query, file control
//!   and close of the log, first writes what was gathered.
//! - A commit reaches the file before anyone can see it. The frame that commits a transaction is
//!   the one whose header names the database's size; once its page is gathered, everything is
//!   written in that same `xWrite` call, so a failure fails the commit as an unbuffered write's
//!   would. Only then does SQLite publish the commit in the shared-memory index — and in case a
//!   commit frame ever came in other pieces, the database file's `xShmBarrier`, which SQLite
//!   calls while publishing it, writes any gathered frames of that database's logs first.
//! - Another connection may write the log once this one lets its write lock go (an exclusive
//!   `xShmLock` released on the database file): gathered frames of a transaction that rolled back
//!   are written then, as they would have been before, so they never land over that connection's
//!   later frames.
//!
//! Only files SQLite opens as a write-ahead log are gathered; every other call goes straight to
//! the default VFS. Memory: a log's gathered bytes are capped at [`MAX_GATHERED`].
//!
//! A log is tied to its database by the path SQLite opened the database under: connections that
//! open one database under two spellings of its path (a symbolic link) would not see each other's
//! logs in the hooks above. The server opens every connection from one URL.
#![allow(unsafe_code)]

use libsqlite3_sys as ffi;
use std::ffi::{CStr, c_int, c_void};
use std::ptr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// The VFS's name, for a connection's `vfs=` option.
pub const NAME: &str = "croupier-wal";
const NAME_C: &CStr = c"croupier-wal";

/// Most bytes of a log gathered before they are written anyway (a wallet batch commits 1–3 MiB).
pub const MAX_GATHERED: usize = 4 << 20;

/// Most bytes written in one call ([`Gathered::flush`]).
const WRITE_PIECE: usize = 124 << 10;

/// Size of a WAL frame's header; bytes 4..8 of a commit frame's hold the database's size.
const FRAME_HEADER: usize = 24;

/// The default VFS, wrapped (set once by [`register`]).
static DEFAULT: OnceLock<usize> = OnceLock::new();

/// Every open log, to be written before its database's commit is published or its write lock is
/// released by another handle ([`flush_logs_of`]).
static LOGS: Mutex<Vec<Arc<Log>>> = Mutex::new(Vec::new());

/// How many logs have gathered bytes now: when none, the database file's hooks skip [`LOGS`].
static GATHERING: AtomicUsize = AtomicUsize::new(0);

/// Writes to logs received from SQLite, and `pwrite`s made for them ([`stats`]).
static RECEIVED: AtomicU64 = AtomicU64::new(0);
static WRITTEN: AtomicU64 = AtomicU64::new(0);

/// Statement journals spilled into a file ([`spilled_statement_journals`]).
static SPILLED: AtomicU64 = AtomicU64::new(0);

/// Bytes of a statement journal SQLite keeps in memory before it spills the journal into a
/// temporary file (`SQLITE_CONFIG_STMTJRNL_SPILL`, 64 KiB by default), set by [`register`].
///
/// Why (issue 23): every statement of the writer's batches that inserts the rows of a JSON list
/// (`INSERT … SELECT … FROM jsonb_each(…)`) writes many rows and calls functions (`->>`), so
/// SQLite opens a statement journal for it — whatever its conflict clause — and copies into it
/// every page the statement changes, so a failing statement can be undone alone. Kept in memory
/// by `temp_store = MEMORY`, the journal is a list of 1 KiB chunks, five allocations and frees
/// per 4 KiB page: `subjournalPageIfRequired` was 12.6 % of the single writer's time under the
/// aggregator's load (`perf --call-graph dwarf`, 2026-11-29), most of it `malloc` and `free`.
/// Spilling only past this size, the journal is one chunk of this size per statement and no
/// file is written: a wallet batch's statement journals a few hundred pages (1–2 MiB).
pub const STATEMENT_JOURNAL_SPILL: c_int = 8 << 20;

/// Registers the VFS (once; later calls answer the first's result). It is not made the default:
/// a connection asks for it by name ([`NAME`]).
///
/// First, before SQLite initialises (that is, before any connection of the process is opened),
/// it sets [`STATEMENT_JOURNAL_SPILL`]; if SQLite was already initialised, the default stays (a
/// slower journal, nothing else) and a warning says so.
pub fn register() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            // SAFETY: `sqlite3_config` with `SQLITE_CONFIG_STMTJRNL_SPILL` takes one `int`, as
            // passed; called after SQLite initialised it changes nothing and answers
            // `SQLITE_MISUSE`. This runs once per process (the `OnceLock`).
            let spill = unsafe { ffi::sqlite3_config(ffi::SQLITE_CONFIG_STMTJRNL_SPILL, STATEMENT_JOURNAL_SPILL) };
            if spill != ffi::SQLITE_OK {
                tracing::warn!(
                    code = spill,
                    "SQLite was initialised before the statement journal's spill size could be set"
                );
            }
            // SAFETY: `sqlite3_vfs_find` initialises SQLite and answers the default VFS, which
            // lives as long as the process; the copy made of it is leaked, so it does too, as
            // `sqlite3_vfs_register` requires. Only `szOsFile`, `zName`, `pNext` and `xOpen`
            // change: the rest of the default's methods take no state from the VFS struct but
            // `pAppData` and `mxPathname`, copied as they are.
            unsafe {
                let default = ffi::sqlite3_vfs_find(ptr::null());
                if default.is_null() {
                    return Err("SQLite has no default VFS".to_owned());
                }
                let mut vfs: ffi::sqlite3_vfs = ptr::read(default);
                vfs.szOsFile = c_int::try_from(size_of::<Shim>()).map_err(|e| e.to_string())?;
                vfs.zName = NAME_C.as_ptr();
                vfs.pNext = ptr::null_mut();
                vfs.xOpen = Some(x_open);
                let _ = DEFAULT.set(default as usize);
                let rc = ffi::sqlite3_vfs_register(Box::leak(Box::new(vfs)), 0);
                if rc == ffi::SQLITE_OK { Ok(()) } else { Err(format!("sqlite3_vfs_register answered {rc}")) }
            }
        })
        .clone()
}

/// Statement journals SQLite spilled into a temporary file since the process started (each
/// opened through this VFS): none while they stay under [`STATEMENT_JOURNAL_SPILL`].
pub fn spilled_statement_journals() -> u64 {
    SPILLED.load(Ordering::Relaxed)
}

/// Writes to write-ahead logs received from SQLite, and the `pwrite` calls made for them, since
/// the process started.
pub fn stats() -> (u64, u64) {
    (RECEIVED.load(Ordering::Relaxed), WRITTEN.load(Ordering::Relaxed))
}

fn default_vfs() -> *mut ffi::sqlite3_vfs {
    DEFAULT.get().copied().unwrap_or(0) as *mut ffi::sqlite3_vfs
}

/// What SQLite allocates per open file (`szOsFile`): the `sqlite3_file` it sees, then ours.
#[repr(C)]
struct Shim {
    base: ffi::sqlite3_file,
    /// The default VFS's file, in memory of its own (`words` u64s).
    real: *mut ffi::sqlite3_file,
    words: usize,
    role: Role,
}

enum Role {
    Plain,
    /// A main database file, by its full path.
    Database(String),
    Log(Arc<Log>),
}

/// A write-ahead log: its file and what was gathered for it, behind one lock (a database file's
/// hook may write it from another connection's thread).
struct Log {
    /// The full path of its database.
    database: String,
    state: Mutex<Gathered>,
}

struct Gathered {
    /// The default VFS's file of the log.
    real: *mut ffi::sqlite3_file,
    /// Where `bytes` go in the file.
    start: i64,
    bytes: Vec<u8>,
    /// The last write was a commit frame's header: its page ends the commit.
    commit_header: bool,
}

// SAFETY: `real` is only used while the `Log`'s mutex is held, so by one thread at a time; the
// default VFS's files may be used from any thread that way (SQLite's own threads do).
unsafe impl Send for Gathered {}

impl Log {
    fn lock(&self) -> MutexGuard<'_, Gathered> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Gathered {
    /// Writes what was gathered; answers the write's result code (`SQLITE_OK` with nothing to do).
    fn flush(&mut self) -> c_int {
        if self.bytes.is_empty() {
            return ffi::SQLITE_OK;
        }
        // The default VFS writes at most 128 KiB - 1 per call (it masks the length with 0x1ffff,
        // and a longer write came back as SQLITE_FULL): the gathered bytes go in 124 KiB pieces.
        let mut rc = ffi::SQLITE_OK;
        let mut offset = self.start;
        for piece in self.bytes.chunks(WRITE_PIECE) {
            let amount = c_int::try_from(piece.len()).unwrap_or(c_int::MAX);
            // SAFETY: `real` is the open log's default-VFS file (closed only under this same
            // lock, after a flush) and `piece` outlives the call.
            rc = unsafe {
                match (*(*self.real).pMethods).xWrite {
                    Some(write) => write(self.real, piece.as_ptr().cast(), amount, offset),
                    None => ffi::SQLITE_IOERR_WRITE,
                }
            };
            WRITTEN.fetch_add(1, Ordering::Relaxed);
            if rc != ffi::SQLITE_OK {
                break;
            }
            offset = offset.saturating_add(i64::from(amount));
        }
        // Written or failed, the bytes are done with: a failed write fails its caller, as an
        // unbuffered one would, and SQLite does not publish what it could not write.
        self.bytes.clear();
        self.commit_header = false;
        GATHERING.fetch_sub(1, Ordering::Relaxed);
        if self.bytes.capacity() > 2 * MAX_GATHERED {
            self.bytes.shrink_to(MAX_GATHERED);
        }
        rc
    }

    /// Gathers a write at `offset`, writing first what cannot be joined to it and after it when
    /// it ends a commit frame (or the buffer is full).
    fn write(&mut self, data: &[u8], offset: i64) -> c_int {
        RECEIVED.fetch_add(1, Ordering::Relaxed);
        if data.is_empty() {
            return ffi::SQLITE_OK;
        }
        let end = i64::try_from(self.bytes.len()).ok().and_then(|n| self.start.checked_add(n));
        if !self.bytes.is_empty() && end != Some(offset) {
            let rc = self.flush();
            if rc != ffi::SQLITE_OK {
                return rc;
            }
        }
        if self.bytes.is_empty() {
            self.start = offset;
            GATHERING.fetch_add(1, Ordering::Relaxed);
        }
        self.bytes.extend_from_slice(data);
        let ends_commit = self.commit_header;
        self.commit_header = data.len() == FRAME_HEADER && data[4..8] != [0; 4];
        if ends_commit || self.bytes.len() >= MAX_GATHERED { self.flush() } else { ffi::SQLITE_OK }
    }
}

/// Writes the gathered frames of every log of `database` (before its commit is published, or
/// another connection may write the log).
fn flush_logs_of(database: &str) -> c_int {
    if GATHERING.load(Ordering::Relaxed) == 0 {
        return ffi::SQLITE_OK;
    }
    let logs = LOGS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut result = ffi::SQLITE_OK;
    for log in logs.iter().filter(|log| log.database == database) {
        let rc = log.lock().flush();
        if rc != ffi::SQLITE_OK {
            result = rc;
        }
    }
    result
}

static METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 3,
    xClose: Some(x_close),
    xRead: Some(x_read),
    xWrite: Some(x_write),
    xTruncate: Some(x_truncate),
    xSync: Some(x_sync),
    xFileSize: Some(x_file_size),
    xLock: Some(x_lock),
    xUnlock: Some(x_unlock),
    xCheckReservedLock: Some(x_check_reserved_lock),
    xFileControl: Some(x_file_control),
    xSectorSize: Some(x_sector_size),
    xDeviceCharacteristics: Some(x_device_characteristics),
    xShmMap: Some(x_shm_map),
    xShmLock: Some(x_shm_lock),
    xShmBarrier: Some(x_shm_barrier),
    xShmUnmap: Some(x_shm_unmap),
    xFetch: Some(x_fetch),
    xUnfetch: Some(x_unfetch),
};

/// The default VFS's file of `file` and its methods.
///
/// # Safety
/// `file` must be a file this VFS opened and has not closed.
unsafe fn real(file: *mut ffi::sqlite3_file) -> (*mut ffi::sqlite3_file, &'static ffi::sqlite3_io_methods) {
    // SAFETY: per the contract, `file` is a `Shim` whose `real` is open, and an open file's
    // methods are a static table of the default VFS.
    unsafe {
        let real = (*file.cast::<Shim>()).real;
        (real, &*(*real).pMethods)
    }
}

/// What `file` is to this VFS.
///
/// # Safety
/// As [`real`].
unsafe fn role_of<'a>(file: *mut ffi::sqlite3_file) -> &'a Role {
    // SAFETY: per the contract, `file` is an initialised `Shim`.
    unsafe { &(*file.cast::<Shim>()).role }
}

/// Runs `call` on a log's file after writing what was gathered (under the log's lock), or
/// straight on any other file.
///
/// # Safety
/// As [`real`].
unsafe fn flushed(
    file: *mut ffi::sqlite3_file,
    call: impl FnOnce(*mut ffi::sqlite3_file, &'static ffi::sqlite3_io_methods) -> c_int,
) -> c_int {
    // SAFETY: per the contract.
    let (real, methods) = unsafe { real(file) };
    // SAFETY: per the contract.
    match unsafe { role_of(file) } {
        Role::Log(log) => {
            let mut gathered = log.lock();
            let rc = gathered.flush();
            if rc != ffi::SQLITE_OK {
                return rc;
            }
            call(real, methods)
        }
        _ => call(real, methods),
    }
}

unsafe extern "C" fn x_open(
    _vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    let default = default_vfs();
    // SAFETY: `default` is the default VFS (set before this VFS was registered); SQLite gave
    // `file` `szOsFile` bytes for a `Shim`, which is written whole below before its methods are
    // set (SQLite calls no method of a file whose `pMethods` is null). The real file gets memory
    // of the default's `szOsFile`, 8-aligned, freed by `x_close` or here on failure.
    unsafe {
        (*file).pMethods = ptr::null();
        let Some(open) = (*default).xOpen else { return ffi::SQLITE_ERROR };
        let words = usize::try_from((*default).szOsFile).unwrap_or(0).div_ceil(8).max(1);
        let real: *mut ffi::sqlite3_file = Box::into_raw(vec![0_u64; words].into_boxed_slice()).cast();
        let rc = open(default, name, real, flags, out_flags);
        if rc != ffi::SQLITE_OK {
            if !(*real).pMethods.is_null()
                && let Some(close) = (*(*real).pMethods).xClose
            {
                close(real);
            }
            drop(Box::from_raw(ptr::slice_from_raw_parts_mut(real.cast::<u64>(), words)));
            return rc;
        }
        if flags & ffi::SQLITE_OPEN_SUBJOURNAL != 0 {
            SPILLED.fetch_add(1, Ordering::Relaxed);
        }
        let path = if name.is_null() { None } else { CStr::from_ptr(name).to_str().ok().map(str::to_owned) };
        let role = match path {
            Some(path) if flags & ffi::SQLITE_OPEN_WAL != 0 => {
                let database = path.strip_suffix("-wal").unwrap_or(&path).to_owned();
                let state = Mutex::new(Gathered { real, start: 0, bytes: Vec::new(), commit_header: false });
                let log = Arc::new(Log { database, state });
                LOGS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(Arc::clone(&log));
                Role::Log(log)
            }
            Some(path) if flags & ffi::SQLITE_OPEN_MAIN_DB != 0 => Role::Database(path),
            _ => Role::Plain,
        };
        let shim = file.cast::<Shim>();
        ptr::addr_of_mut!((*shim).real).write(real);
        ptr::addr_of_mut!((*shim).words).write(words);
        ptr::addr_of_mut!((*shim).role).write(role);
        (*file).pMethods = &METHODS;
        ffi::SQLITE_OK
    }
}

unsafe extern "C" fn x_close(file: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: SQLite closes an open file once; after this call it uses neither the file nor its
    // memory, so the `Shim`'s fields are dropped and the real file's memory freed here. A log is
    // taken out of `LOGS` first, so no hook reaches it after.
    unsafe {
        let shim = file.cast::<Shim>();
        if let Role::Log(log) = &(*shim).role {
            LOGS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).retain(|l| !Arc::ptr_eq(l, log));
        }
        let rc = flushed(file, |real, methods| methods.xClose.map_or(ffi::SQLITE_OK, |close| close(real)));
        let (real, words) = ((*shim).real, (*shim).words);
        ptr::drop_in_place(ptr::addr_of_mut!((*shim).role));
        drop(Box::from_raw(ptr::slice_from_raw_parts_mut(real.cast::<u64>(), words)));
        (*file).pMethods = ptr::null();
        rc
    }
}

unsafe extern "C" fn x_read(file: *mut ffi::sqlite3_file, buf: *mut c_void, amount: c_int, offset: i64) -> c_int {
    // SAFETY: SQLite calls methods of open files only, with its arguments valid for the call.
    unsafe {
        flushed(file, |real, methods| methods.xRead.map_or(ffi::SQLITE_IOERR, |read| read(real, buf, amount, offset)))
    }
}

unsafe extern "C" fn x_write(file: *mut ffi::sqlite3_file, buf: *const c_void, amount: c_int, offset: i64) -> c_int {
    // SAFETY: SQLite calls methods of open files only; `buf` holds `amount` bytes for the call
    // (they are copied when gathered).
    unsafe {
        match role_of(file) {
            Role::Log(log) => {
                let data = std::slice::from_raw_parts(buf.cast::<u8>(), usize::try_from(amount).unwrap_or(0));
                log.lock().write(data, offset)
            }
            _ => {
                let (real, methods) = real(file);
                methods.xWrite.map_or(ffi::SQLITE_IOERR_WRITE, |write| write(real, buf, amount, offset))
            }
        }
    }
}

unsafe extern "C" fn x_truncate(file: *mut ffi::sqlite3_file, size: i64) -> c_int {
    // SAFETY: as `x_read`.
    unsafe { flushed(file, |real, methods| methods.xTruncate.map_or(ffi::SQLITE_IOERR, |f| f(real, size))) }
}

unsafe extern "C" fn x_sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    // SAFETY: as `x_read`.
    unsafe { flushed(file, |real, methods| methods.xSync.map_or(ffi::SQLITE_IOERR, |f| f(real, flags))) }
}

unsafe extern "C" fn x_file_size(file: *mut ffi::sqlite3_file, size: *mut i64) -> c_int {
    // SAFETY: as `x_read`.
    unsafe { flushed(file, |real, methods| methods.xFileSize.map_or(ffi::SQLITE_IOERR, |f| f(real, size))) }
}

unsafe extern "C" fn x_lock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        let (real, methods) = real(file);
        methods.xLock.map_or(ffi::SQLITE_OK, |f| f(real, level))
    }
}

unsafe extern "C" fn x_unlock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        let (real, methods) = real(file);
        methods.xUnlock.map_or(ffi::SQLITE_OK, |f| f(real, level))
    }
}

unsafe extern "C" fn x_check_reserved_lock(file: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        let (real, methods) = real(file);
        methods.xCheckReservedLock.map_or(ffi::SQLITE_IOERR, |f| f(real, out))
    }
}

unsafe extern "C" fn x_file_control(file: *mut ffi::sqlite3_file, op: c_int, arg: *mut c_void) -> c_int {
    // SAFETY: as `x_read`.
    unsafe { flushed(file, |real, methods| methods.xFileControl.map_or(ffi::SQLITE_NOTFOUND, |f| f(real, op, arg))) }
}

unsafe extern "C" fn x_sector_size(file: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        let (real, methods) = real(file);
        methods.xSectorSize.map_or(4096, |f| f(real))
    }
}

unsafe extern "C" fn x_device_characteristics(file: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        let (real, methods) = real(file);
        methods.xDeviceCharacteristics.map_or(0, |f| f(real))
    }
}

unsafe extern "C" fn x_shm_map(
    file: *mut ffi::sqlite3_file,
    page: c_int,
    size: c_int,
    extend: c_int,
    out: *mut *mut c_void,
) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        let (real, methods) = real(file);
        methods.xShmMap.map_or(ffi::SQLITE_IOERR, |f| f(real, page, size, extend, out))
    }
}

unsafe extern "C" fn x_shm_lock(file: *mut ffi::sqlite3_file, offset: c_int, n: c_int, flags: c_int) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        // An exclusive lock let go (the write lock among them): another connection may write the
        // log next, so this one's gathered frames go first.
        if flags & ffi::SQLITE_SHM_UNLOCK != 0
            && flags & ffi::SQLITE_SHM_EXCLUSIVE != 0
            && let Role::Database(database) = role_of(file)
        {
            let rc = flush_logs_of(database);
            if rc != ffi::SQLITE_OK {
                tracing::error!(rc, "writing a write-ahead log's gathered frames failed at a lock's release");
            }
        }
        let (real, methods) = real(file);
        methods.xShmLock.map_or(ffi::SQLITE_IOERR, |f| f(real, offset, n, flags))
    }
}

unsafe extern "C" fn x_shm_barrier(file: *mut ffi::sqlite3_file) {
    // SAFETY: as `x_read`.
    unsafe {
        // SQLite publishes a commit between the two halves of this barrier: its frames must be in
        // the file by then. They are already (the commit frame's write writes them) unless a
        // commit frame came in pieces; if even this write fails, publishing a commit whose frames
        // are not in the file would let readers see pages that are not there, so the process
        // stops instead (the log on disk then holds no trace of that commit).
        if let Role::Database(database) = role_of(file) {
            let rc = flush_logs_of(database);
            if rc != ffi::SQLITE_OK {
                tracing::error!(rc, "writing a committed transaction's write-ahead-log frames failed; stopping");
                std::process::abort();
            }
        }
        let (real, methods) = real(file);
        if let Some(f) = methods.xShmBarrier {
            f(real);
        }
    }
}

unsafe extern "C" fn x_shm_unmap(file: *mut ffi::sqlite3_file, delete: c_int) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        let (real, methods) = real(file);
        methods.xShmUnmap.map_or(ffi::SQLITE_OK, |f| f(real, delete))
    }
}

unsafe extern "C" fn x_fetch(file: *mut ffi::sqlite3_file, offset: i64, amount: c_int, out: *mut *mut c_void) -> c_int {
    // SAFETY: as `x_read`; a default file of an older method table has no memory map to give.
    unsafe {
        let (real, methods) = real(file);
        match methods.xFetch {
            Some(f) if methods.iVersion >= 3 => f(real, offset, amount, out),
            _ => {
                *out = ptr::null_mut();
                ffi::SQLITE_OK
            }
        }
    }
}

unsafe extern "C" fn x_unfetch(file: *mut ffi::sqlite3_file, offset: i64, p: *mut c_void) -> c_int {
    // SAFETY: as `x_read`.
    unsafe {
        let (real, methods) = real(file);
        match methods.xUnfetch {
            Some(f) if methods.iVersion >= 3 => f(real, offset, p),
            _ => ffi::SQLITE_OK,
        }
    }
}
