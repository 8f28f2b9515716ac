// The system's SQLite for the floor of the store benchmarks: the same library the SQLiteStore links,
// called through its C API with no framework in between.
#include <sqlite3.h>
