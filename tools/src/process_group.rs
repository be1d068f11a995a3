//! The two system calls behind ending an engine and everything it started, shared by the referee
//! and the board's bridge: each engine is the leader of a process group of its own (its pid is
//! the group's id), killed whole, and reaped only after that, so that the id cannot have been
//! reused by a stranger when the signal is sent.

use std::io;

/// Sends SIGKILL to process group `group` (a non-positive id is ignored). Call it before the
/// group's leader is reaped. A group with no member left makes it do nothing.
pub fn kill(group: i32) {
    if group > 0 {
        // SAFETY: killpg(2) takes plain integers and touches no memory of ours.
        unsafe {
            libc::killpg(group, libc::SIGKILL);
        }
    }
}

/// Whether the child process `pid` has exited, without reaping it (it stays waitable, so its pid
/// and group id stay reserved until it is reaped).
///
/// # Errors
/// What waitid(2) says, e.g. when `pid` is no waitable child of ours.
pub fn has_exited(pid: i32) -> io::Result<bool> {
    let pid = libc::id_t::try_from(pid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: waitid(2) writes only into the siginfo_t we own, which all-zero bytes make a valid
    // value of (a plain C struct). WNOWAIT leaves the child waitable, WNOHANG makes it return at
    // once; si_pid stays 0 while the child runs.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        if libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(info.si_pid() != 0)
    }
}
