// SPDX-License-Identifier: GPL-2.0-or-later
// A writable mount with icase: a name looked up by another spelling than the one it shows
// (CASE.txt for Case.txt) is an inode of its own to the kernel, an alias of the name's.
//
// The kernel takes a rename whose new name is the old one's inode for no change at all, and
// mv(1) refuses to move a file onto itself: with the one inode for every spelling, Case.txt
// could never become CASE.txt. Every call on an alias is the call on the name's inode; only
// the inode number differs. A change through one spelling changes what the others show, so
// the kernel keeps nothing of any inode (attributes, names, listings, pages) on such a mount.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "fs/view/ForwardingView.hpp"

namespace pakfs::fs {

class CaseAliases : public ForwardingView {
public:
    explicit CaseAliases(View& inner) : ForwardingView(inner) {}

    // Alias inode numbers start here, above any the overlay hands out.
    static constexpr Ino kFirstAlias = Ino(1) << 62;
    static bool isAlias(Ino ino) { return ino >= kFirstAlias; }

    // The calls that hand out or show inode numbers; every other is passed on as it is.
    int lookup(Ino parent, std::string_view name, struct stat* st) override;
    int getattr(Ino ino, struct stat* st) override;
    int setattr(Ino ino, const struct stat& attr, int toSet, std::uint64_t fh,
                struct stat* st) override;
    void forget(Ino ino) override;
    // A change through one spelling changes what every other shows: the kernel keeps nothing.
    bool keepsNoAttributes(Ino) const override { return true; }

private:
    // The name's inode for an alias (0 for one forgotten); any other inode as it is.
    Ino below(Ino ino) override;

    std::mutex mutex_;
    std::unordered_map<Ino, Ino> aliases_;               // alias -> the name's inode
    std::map<std::pair<Ino, std::string>, Ino> byName_;  // (folder, spelling) -> alias
    std::unordered_map<Ino, std::pair<Ino, std::string>> spellingOf_;  // alias -> its key
    Ino next_ = kFirstAlias;
};

}  // namespace pakfs::fs
