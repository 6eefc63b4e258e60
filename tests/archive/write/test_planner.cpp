// SPDX-License-Identifier: GPL-2.0-or-later
// Planning without a mount or the CLI: a base pak built here and a change set -> the plan's
// folders, files, where each file's bytes come from, and the changes listed.
#include <catch2/catch.hpp>

#include "archive/pak/PakIndex.hpp"
#include "archive/write/PackPlanner.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace stdfs = std::filesystem;

namespace {

// The base every test plans over: folders Data, Data/Deep and Text (in this order: depth
// first), files in folder order.
struct Base {
    test::TempDir dir;
    std::shared_ptr<const PakIndex> pak;

    Base() {
        test::writeFile(dir / "src/root.txt", test::bytesOf("the root\n"));
        test::writeFile(dir / "src/Data/x.bin", test::randomBytes(300, 1));
        test::writeFile(dir / "src/Data/Deep/y.bin", test::randomBytes(700, 2));
        test::writeFile(dir / "src/Text/a.txt", test::bytesOf("alpha\n"));
        test::writeFile(dir / "src/Text/b.txt", test::bytesOf("beta\n"));
        writePak(dir / "src", dir / "Base.pak", test::testKey(), {});
        pak = PakIndex::open(dir / "Base.pak", test::testKey());
    }
    const PakEntry& entry(const std::string& path) const {
        for (const auto& e : pak->entries())
            if (e.path == path) return e;
        FAIL("no entry " << path);
        throw;
    }
};

// A change set whose files are written under `root`.
struct Changes {
    ChangeSet set;
    explicit Changes(const stdfs::path& root) { set.root = root; }
    void file(const std::string& path, const Bytes& data) {
        test::writeFile(set.root / path, data);
        set.files.emplace(path, set.root / path);
    }
    void folder(const std::string& path) {
        stdfs::create_directories(set.root / path);
        set.folders.push_back(path);
        set.folderSet.insert(path);
    }
};

using Listed = std::vector<std::pair<char, std::string>>;

Listed listed(const ChangePlan& plan) {
    Listed out;
    for (const auto& c : plan.changes) out.emplace_back(c.kind, c.path);
    return out;
}

std::vector<std::pair<std::int32_t, std::string>> foldersOf(const PackPlan& plan) {
    std::vector<std::pair<std::int32_t, std::string>> out;
    for (const auto& f : plan.folders) out.emplace_back(f.parent, f.name);
    return out;
}

}  // namespace

TEST_CASE("planner: the base's folders and files in table order, in folder order") {
    Base base;
    REQUIRE(base.pak->folders().size() == 3);
    CHECK(base.pak->folders()[0].path == "Data");
    CHECK(base.pak->folders()[1].path == "Data/Deep");
    CHECK(base.pak->folders()[2].path == "Text");
    std::vector<std::string> paths;
    for (const auto& e : base.pak->entries()) paths.push_back(e.path);
    CHECK(paths == std::vector<std::string>{"root.txt", "Data/x.bin", "Data/Deep/y.bin",
                                            "Text/a.txt", "Text/b.txt"});
}

TEST_CASE("planner: base + changes -> kept, changed, deleted, renamed and added files") {
    Base base;
    Changes c(base.dir / "overlay");
    c.folder("Data");
    c.folder("New");
    c.folder("Text");
    c.file("New/n.txt", test::bytesOf("new\n"));
    c.file("Text/a.txt", test::bytesOf("alpha, changed\n"));
    c.file("Text/b.txt", test::bytesOf("beta\n"));        // as the base has it
    c.file("Text/moved.bin", test::randomBytes(700, 2));  // the bytes of Data/Deep/y.bin
    c.set.whiteouts.emplace("Data/Deep", c.set.root / "Data/.wh.Deep");

    const ChangePlan plan = planChanges(base.pak, c.set);
    CHECK(listed(plan) == Listed{{'D', "Data/Deep/"},
                                 {'D', "Data/Deep/y.bin"},
                                 {'A', "New/"},
                                 {'A', "New/n.txt"},
                                 {'M', "Text/a.txt"},
                                 {'A', "Text/moved.bin"}});
    CHECK(plan.plan.base == base.pak);
    // Data/Deep is gone; New comes after the base's folders that stay.
    CHECK(foldersOf(plan.plan) == std::vector<std::pair<std::int32_t, std::string>>{
                                      {-1, "Data\\"}, {-1, "Text\\"}, {-1, "New\\"}});

    const auto& files = plan.plan.files;
    REQUIRE(files.size() == 6);
    // Kept: their encrypted slots copied, nothing read from disk.
    CHECK(files[0].packPath == "root.txt");
    CHECK(files[0].folder == -1);
    CHECK(files[0].copy == &base.entry("root.txt"));
    CHECK(files[1].packPath == "Data/x.bin");
    CHECK(files[1].folder == 0);
    CHECK(files[1].name == "x.bin");
    CHECK(files[1].copy == &base.entry("Data/x.bin"));
    // Changed: encoded from disk in place of the base's entry, whose class ID and flags it
    // keeps (the writer takes them from `was`).
    CHECK(files[2].packPath == "Text/a.txt");
    CHECK(files[2].folder == 1);
    CHECK(files[2].copy == nullptr);
    CHECK(files[2].disk == c.set.root / "Text/a.txt");
    CHECK(files[2].was == &base.entry("Text/a.txt"));
    CHECK(files[2].wasVersion == 3);
    // The same bytes as the base: no change, copied.
    CHECK(files[3].packPath == "Text/b.txt");
    CHECK(files[3].copy == &base.entry("Text/b.txt"));
    CHECK(files[3].was == nullptr);
    // Added, in path order after the base's files.
    CHECK(files[4].packPath == "New/n.txt");
    CHECK(files[4].folder == 2);
    CHECK(files[4].name == "n.txt");
    CHECK(files[4].copy == nullptr);
    CHECK(files[4].disk == c.set.root / "New/n.txt");
    // A deleted file's bytes under a new name: renamed, its slot copied.
    CHECK(files[5].packPath == "Text/moved.bin");
    CHECK(files[5].folder == 1);
    CHECK(files[5].name == "moved.bin");
    CHECK(files[5].copy == &base.entry("Data/Deep/y.bin"));

    CHECK(plan.options.version == 3);
    CHECK(plan.options.unplannableAdvice ==
          "To go on: remove them from " + c.set.root.string() + ".");
}

TEST_CASE("planner: an opaque folder hides the base's contents, a file again there replaces") {
    Base base;
    Changes c(base.dir / "overlay");
    c.folder("Text");
    c.set.opaque.emplace("Text", c.set.root / "Text/.wh..wh..opq");
    c.file("Text/b.txt", test::bytesOf("beta again\n"));
    const ChangePlan plan = planChanges(base.pak, c.set);
    CHECK(listed(plan) == Listed{{'D', "Text/a.txt"}, {'M', "Text/b.txt"}});
    CHECK(foldersOf(plan.plan) == std::vector<std::pair<std::int32_t, std::string>>{
                                      {-1, "Data\\"}, {0, "Deep\\"}, {-1, "Text\\"}});
    REQUIRE(plan.plan.files.size() == 4);
    CHECK(plan.plan.files[3].packPath == "Text/b.txt");
    CHECK(plan.plan.files[3].was == &base.entry("Text/b.txt"));
}

TEST_CASE("planner: no changes is a plan that copies every slot") {
    Base base;
    Changes c(base.dir / "overlay");
    const ChangePlan plan = planChanges(base.pak, c.set);
    CHECK(plan.changes.empty());
    REQUIRE(plan.plan.files.size() == base.pak->entries().size());
    for (std::size_t i = 0; i < plan.plan.files.size(); ++i)
        CHECK(plan.plan.files[i].copy == &base.pak->entries()[i]);
    CHECK(foldersOf(plan.plan) == std::vector<std::pair<std::int32_t, std::string>>{
                                      {-1, "Data\\"}, {0, "Deep\\"}, {-1, "Text\\"}});
}

TEST_CASE("planner: refuses whiteouts of nothing, deleted-and-changed and case twins") {
    Base base;
    {
        Changes c(base.dir / "o1");
        c.set.whiteouts.emplace("Text/zz.txt", c.set.root / "Text/.wh.zz.txt");
        REQUIRE_THROWS_WITH(planChanges(base.pak, c.set),
                            (c.set.root / "Text/.wh.zz.txt").string() +
                                ": a whiteout of Text/zz.txt, which the pack does not hold");
    }
    {
        Changes c(base.dir / "o2");
        c.folder("Text");
        c.file("Text/a.txt", test::bytesOf("x"));
        c.set.whiteouts.emplace("Text/a.txt", c.set.root / "Text/.wh.a.txt");
        REQUIRE_THROWS_WITH(planChanges(base.pak, c.set),
                            (c.set.root / "Text/.wh.a.txt").string() +
                                ": Text/a.txt is both deleted and in the overlay");
    }
    {
        Changes c(base.dir / "o3");
        c.folder("Text");
        c.file("Text/A.txt", test::bytesOf("x"));
        REQUIRE_THROWS_WITH(planChanges(base.pak, c.set),
                            (c.set.root / "Text/A.txt").string() +
                                ": differs only in case from Text/a.txt in the pack, which the "
                                "game would not tell apart");
    }
}

TEST_CASE("planner: a patch holds what it adds or changes, under folders of its own") {
    Base base;
    Changes c(base.dir / "Game");
    c.folder("New");
    c.folder("New/Deep");
    c.folder("Text");
    c.file("New/Deep/n.txt", test::bytesOf("new\n"));
    c.file("Text/a.txt", test::bytesOf("alpha, changed\n"));
    c.file("Text/b.txt", test::bytesOf("beta\n"));  // what the view shows: no change
    auto shown = [&](const std::string& path) -> std::optional<ShownEntry> {
        for (const auto& e : base.pak->entries())
            if (e.path == path) return ShownEntry{base.pak, &e};
        return std::nullopt;
    };
    const ChangePlan plan = planPatch(c.set, shown, 3);
    CHECK(listed(plan) == Listed{{'A', "New/Deep/n.txt"}, {'M', "Text/a.txt"}});
    CHECK(plan.plan.base == nullptr);
    CHECK(foldersOf(plan.plan) == std::vector<std::pair<std::int32_t, std::string>>{
                                      {-1, "New\\"}, {0, "Deep\\"}, {-1, "Text\\"}});
    REQUIRE(plan.plan.files.size() == 2);
    CHECK(plan.plan.files[0].folder == 1);
    CHECK(plan.plan.files[0].name == "n.txt");
    CHECK(plan.plan.files[0].was == nullptr);
    CHECK(plan.plan.files[1].folder == 2);
    CHECK(plan.plan.files[1].name == "a.txt");
    CHECK(plan.plan.files[1].copy == nullptr);
    CHECK(plan.plan.files[1].was == &base.entry("Text/a.txt"));
    CHECK(plan.plan.files[1].wasVersion == 3);
    CHECK(plan.options.version == 3);

    c.set.whiteouts.emplace("Text/b.txt", c.set.root / "Text/.wh.b.txt");
    REQUIRE_THROWS_WITH(planPatch(c.set, shown, 3),
                        (c.set.root / "Text/.wh.b.txt").string() +
                            ": a patch pack cannot delete (a pack loaded later only adds and "
                            "replaces files); commit into the pack that holds it instead");
}

TEST_CASE("planner: a folder -> folders depth first, files in folder order, base candidates") {
    Base base;
    test::TempDir tree;
    test::writeFile(tree / "z.txt", test::bytesOf("z"));
    test::writeFile(tree / "Text/a.txt", test::bytesOf("alpha\n"));
    test::writeFile(tree / "B/C/c.txt", test::bytesOf("c"));
    test::writeFile(tree / "B/b.txt", test::bytesOf("b"));
    PackOptions options;
    PackPlan plain = planFolder(tree.path(), test::testKey(), options);
    CHECK(plain.base == nullptr);
    CHECK(foldersOf(plain) == std::vector<std::pair<std::int32_t, std::string>>{
                                  {-1, "B\\"}, {0, "C\\"}, {-1, "Text\\"}});
    std::vector<std::tuple<std::int32_t, std::string, std::string>> files;
    for (const auto& f : plain.files) files.emplace_back(f.folder, f.name, f.packPath);
    CHECK(files == std::vector<std::tuple<std::int32_t, std::string, std::string>>{
                       {-1, "z.txt", "z.txt"},
                       {0, "b.txt", "B/b.txt"},
                       {1, "c.txt", "B/C/c.txt"},
                       {2, "a.txt", "Text/a.txt"}});

    options.base = base.dir / "Base.pak";
    PackPlan repack = planFolder(tree.path(), test::testKey(), options);
    REQUIRE(repack.base);
    REQUIRE(repack.files.size() == 4);
    for (const auto& f : repack.files) {
        INFO(f.packPath);
        if (f.packPath == "Text/a.txt")
            CHECK(f.baseCandidate == &repack.base->entries()[3]);
        else
            CHECK(f.baseCandidate == nullptr);
    }
    options.version = 6;
    REQUIRE_THROWS_WITH(planFolder(tree.path(), test::testKey(), options),
                        options.base.string() +
                            ": a version 3 pak, and the output is version 6 (--base is copied as "
                            "encrypted bytes, so the versions must match)");
}
