/* One run per device (see devlock.h). */
#include "dev/devlock.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static bool usable_dir(const char *dir, mode_t mode)
{
	if (mkdir(dir, mode) && errno != EEXIST)
		return false;
	if (mode & S_ISVTX)
		chmod(dir, mode);	/* shared by every user, like /tmp */
	return access(dir, W_OK | X_OK) == 0;
}

const char *devlock_dir(void)
{
	const char *env = getenv("V4L2C_LOCK_DIR");
	if (env && *env)
		return env;
	if (usable_dir("/run/v4l2-conform", 0755))
		return "/run/v4l2-conform";
	return usable_dir("/tmp/v4l2-conform", 01777) ? "/tmp/v4l2-conform" : "/tmp";
}

int devlock_file(const char *device, const char *suffix, char *path, size_t len, char *err, size_t errlen)
{
	struct stat st;
	if (stat(device, &st)) {
		snprintf(err, errlen, "%s: %s", device, strerror(errno));
		return -1;
	}
	if (S_ISCHR(st.st_mode)) {
		snprintf(path, len, "%s/char-%u-%u%s", devlock_dir(), major(st.st_rdev), minor(st.st_rdev), suffix);
		return 0;
	}
	/* Not a device node (a test's stand-in): its canonical path, one file name. */
	char real[PATH_MAX], slug[200];
	if (!realpath(device, real))
		snprintf(real, sizeof(real), "%s", device);
	size_t o = 0;
	for (const char *p = real; *p && o + 1 < sizeof(slug); p++)
		slug[o++] = (*p == '/' || *p == '.') ? '_' : *p;
	slug[o] = 0;
	snprintf(path, len, "%s/path%s%s", devlock_dir(), slug, suffix);
	return 0;
}

int devlock_path(const char *device, char *path, size_t len, char *err, size_t errlen)
{
	return devlock_file(device, ".lock", path, len, err, errlen);
}

static int read_holder(int fd)
{
	char buf[32] = { 0 };
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	return n > 0 ? atoi(buf) : 0;
}

int devlock_acquire(const char *device, bool wait, int *holder, char *err, size_t errlen)
{
	char path[PATH_MAX + 64];
	if (holder)
		*holder = 0;
	if (devlock_path(device, path, sizeof(path), err, errlen))
		return -1;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open the lock %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno, pid = read_holder(fd);
		if (holder)
			*holder = pid;
		if (e != EWOULDBLOCK) {
			snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
			close(fd);
			return -1;
		}
		if (!wait) {
			snprintf(err, errlen, "%s: device in use by pid %d (another run; --wait waits for it)", device,
				 pid);
			close(fd);
			return -1;
		}
		fprintf(stderr, "v4l2-conform: %s: device in use by pid %d, waiting (--wait)\n", device, pid);
		while (flock(fd, LOCK_EX))
			if (errno != EINTR) {
				snprintf(err, errlen, "cannot lock %s: %s", path, strerror(errno));
				close(fd);
				return -1;
			}
	}
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
		/* The lock holds anyway; only the name in the message is lost. */
	}
	return fd;
}

void devlock_release(int fd)
{
	if (fd < 0)
		return;
	if (ftruncate(fd, 0)) {
		/* Nothing to do: the lock goes with the descriptor. */
	}
	close(fd);
}
