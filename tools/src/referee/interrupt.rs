//! An interrupted match: the register of live engine process groups, and the thread that, on
//! SIGINT, SIGTERM or SIGHUP, kills every group, lets the record being written finish, and hands
//! the signal to the program's own exit (zatre-match: 128 + the signal). Each engine runs in a
//! process group of its own, so a terminal's signal never reaches it: without this an interrupted
//! match left its engines running.

use std::collections::BTreeSet;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;

use crate::process_group;

/// The process groups of the engines that run now, by group id (the leader's pid).
static GROUPS: Mutex<BTreeSet<libc::pid_t>> = Mutex::new(BTreeSet::new());

/// Held while a record is written, so that an interrupted match leaves only whole lines.
static RECORDS: Mutex<()> = Mutex::new(());

fn groups() -> MutexGuard<'static, BTreeSet<libc::pid_t>> {
    GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Holds off an exit on a signal while a record is written.
pub(crate) fn writing_records() -> MutexGuard<'static, ()> {
    RECORDS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Spawns `command` as the leader of a process group of its own and registers the group. The
/// register is held while spawning, so a signal either finds the group or comes before it exists.
///
/// # Errors
/// The process cannot be started.
pub(crate) fn spawn_group(command: &mut Command) -> io::Result<Child> {
    let mut groups = groups();
    let child = command.process_group(0).spawn()?;
    if let Ok(group) = libc::pid_t::try_from(child.id()) {
        groups.insert(group);
    }
    Ok(child)
}

/// Kills the group that `leader` leads and forgets it. Call it before `leader` is reaped: until
/// then its pid, the group's id, cannot be reused, so the signal reaches nothing else.
pub(crate) fn kill_group(leader: &Child) {
    let Ok(group) = libc::pid_t::try_from(leader.id()) else { return };
    let mut groups = groups();
    groups.remove(&group);
    process_group::kill(group);
}

/// From now on SIGINT, SIGTERM and SIGHUP kill every engine's process group and then call `exit`
/// with the signal, once the record being written (if any) is whole; no record is written and no
/// engine started after that. The program says how it ends (`exit` prints and exits); this module
/// neither prints nor exits. Call it before any other thread starts: the signals are blocked in
/// the calling thread, the threads it starts inherit that, and one thread of its own waits for
/// them.
///
/// # Errors
/// The signals cannot be blocked or the thread cannot be started.
pub fn exit_on_signals(exit: fn(i32) -> !) -> io::Result<()> {
    // SAFETY: a zeroed sigset_t is a valid value to hand to sigemptyset, which initialises it.
    let mut set: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid sigset_t owned here; these calls only write into it.
    unsafe {
        libc::sigemptyset(&mut set);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, signal);
        }
    }
    // SAFETY: `set` is initialised; the old mask is not asked for (null).
    let rc = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    thread::Builder::new().name("signals".to_string()).spawn(move || loop {
        let mut signal = 0;
        // SAFETY: `set` is initialised and `signal` is a valid place for the answer.
        if unsafe { libc::sigwait(&set, &mut signal) } != 0 {
            continue;
        }
        // Both guards are held to the exit: no record is half written and no engine starts.
        let _records = writing_records();
        let groups = groups();
        for &group in groups.iter() {
            process_group::kill(group);
        }
        exit(signal);
    })?;
    Ok(())
}
