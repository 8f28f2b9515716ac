// The system's SQLite, for the StaplerSQLite module: the SDK's on Apple platforms, libsqlite3 on Linux.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro Swift cannot import: binding with it makes SQLite copy the bytes at once.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
