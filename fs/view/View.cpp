// SPDX-License-Identifier: GPL-2.0-or-later
// inoAt: a path looked up in a view component by component from the root (0 when not found).
#include "fs/view/View.hpp"

namespace pakfs::fs {

View::Ino inoAt(View& view, std::string_view path) {
    if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    if (path.empty() || path.front() != '/') return 0;
    if (path == "/") return View::kRootIno;
    path.remove_prefix(1);
    View::Ino ino = View::kRootIno;
    for (;;) {
        const std::size_t slash = path.find('/');
        const std::string_view name = path.substr(0, slash);
        struct stat st;
        if (name.empty() || view.lookup(ino, name, &st) != 0) return 0;
        ino = st.st_ino;
        if (slash == std::string_view::npos) return ino;
        path.remove_prefix(slash + 1);
    }
}

}  // namespace pakfs::fs
