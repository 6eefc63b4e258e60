// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs._pakfs: the Python binding of the C++ library (<pakfs/pakfs.hpp>) that python/pakfs/
// builds its zipfile-like module on. The GIL is released while a file is decoded.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pakfs/pakfs.hpp>

#include <map>
#include <string>

namespace py = pybind11;

namespace {

// The Python exception class for each kind, set by pakfs/__init__.py (_set_errors).
py::dict& errorClasses() {
    static py::dict* classes = new py::dict();  // never destroyed: outlives the interpreter's end
    return *classes;
}

py::bytes bytesOf(const std::vector<std::uint8_t>& v) {
    return py::bytes(reinterpret_cast<const char*>(v.data()), v.size());
}

}  // namespace

PYBIND11_MODULE(_pakfs, m) {
    m.doc() = "The C++ library pakfs, as the Python module pakfs uses it";
    m.attr("__version__") = pakfs::version();
    m.def("_set_errors", [](py::dict classes) { errorClasses() = classes; });
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const pakfs::Exception& e) {
            const char* kind = pakfs::error_kind_name(e.kind());
            py::dict& classes = errorClasses();
            if (classes.contains(kind)) {
                py::object cls = classes[kind];
                PyErr_SetObject(cls.ptr(), py::str(e.what()).ptr());
            } else {
                PyErr_SetString(PyExc_RuntimeError, e.what());
            }
        }
    });

    // Named as zipfile.ZipInfo names them where it has them (PakInfo copies these).
    py::class_<pakfs::EntryInfo>(m, "_EntryInfo")
        .def_readonly("filename", &pakfs::EntryInfo::name)
        .def_readonly("file_size", &pakfs::EntryInfo::size)
        .def_readonly("compress_size", &pakfs::EntryInfo::stored_size)
        .def_readonly("class_id", &pakfs::EntryInfo::class_id)
        .def_readonly("flags", &pakfs::EntryInfo::flags)
        .def_readonly("compression", &pakfs::EntryInfo::compression)
        .def_readonly("encrypted", &pakfs::EntryInfo::encrypted)
        .def_readonly("gbx", &pakfs::EntryInfo::gbx)
        .def_readonly("decode", &pakfs::EntryInfo::decode)
        .def_readonly("detail", &pakfs::EntryInfo::detail);

    py::class_<pakfs::EntryReader>(m, "_Reader")
        .def("read",
             [](pakfs::EntryReader& r, std::size_t n) {
                 std::string buffer(n, '\0');
                 std::size_t got;
                 {
                     py::gil_scoped_release release;
                     got = r.read(buffer.data(), n);
                 }
                 buffer.resize(got);
                 return py::bytes(buffer);
             })
        .def("readinto",
             [](pakfs::EntryReader& r, py::buffer b) {
                 py::buffer_info info = b.request(true);
                 const std::size_t n = std::size_t(info.size * info.itemsize);
                 py::gil_scoped_release release;
                 return r.read(info.ptr, n);
             })
        .def("seek", [](pakfs::EntryReader& r, std::uint64_t offset) { r.seek(offset); })
        .def("tell", &pakfs::EntryReader::tell)
        .def("size", &pakfs::EntryReader::size);

    py::class_<pakfs::PakFile>(m, "_PakFile")
        .def(py::init([](const std::string& path, const std::string& key,
                         const std::string& keyFile, const std::string& packlist,
                         const std::string& baseKey, const std::string& msKey, bool allowUnproven) {
                 const pakfs::OpenOptions o{.key = key,
                                            .key_file = keyFile,
                                            .packlist = packlist,
                                            .base_key = baseKey,
                                            .ms_key = msKey,
                                            .allow_unproven = allowUnproven};
                 py::gil_scoped_release release;
                 return new pakfs::PakFile(path, o);
             }),
             py::arg("path"), py::arg("key"), py::arg("key_file"), py::arg("packlist"),
             py::arg("base_key"), py::arg("ms_key"), py::arg("allow_unproven"))
        .def("path", &pakfs::PakFile::path)
        .def("version", &pakfs::PakFile::version)
        .def("warnings", &pakfs::PakFile::warnings)
        .def("names", &pakfs::PakFile::names)
        .def("contains", &pakfs::PakFile::contains)
        .def(
            "info",
            [](const pakfs::PakFile& p, const std::string& name, bool prove) {
                pakfs::EntryInfo i;
                {
                    py::gil_scoped_release release;
                    i = p.info(name, prove);
                }
                return i;
            },
            py::arg("name"), py::arg("prove") = true)
        .def("read",
             [](const pakfs::PakFile& p, const std::string& name) {
                 std::vector<std::uint8_t> bytes;
                 {
                     py::gil_scoped_release release;
                     bytes = p.read(name);
                 }
                 return bytesOf(bytes);
             })
        .def("open",
             [](const pakfs::PakFile& p, const std::string& name) {
                 py::gil_scoped_release release;
                 return p.open(name);
             })
        .def("check_json", [](const pakfs::PakFile& p) {
            py::gil_scoped_release release;
            return p.check_json();
        });

    m.def("gbx_info_json", [](py::bytes data, const std::string& name) {
        std::string_view v = data;
        std::string json;
        {
            py::gil_scoped_release release;
            json = pakfs::gbx_info(reinterpret_cast<const std::uint8_t*>(v.data()), v.size(), name)
                       .json;
        }
        return json;
    });
    m.def("gbx_thumbnail", [](py::bytes data, const std::string& name) -> py::object {
        std::string_view v = data;
        std::optional<pakfs::GbxThumbnail> t;
        {
            py::gil_scoped_release release;
            t = pakfs::gbx_thumbnail(reinterpret_cast<const std::uint8_t*>(v.data()), v.size(),
                                     name);
        }
        if (!t) return py::none();
        return py::make_tuple(bytesOf(t->bytes), t->format, t->icon, t->width, t->height);
    });
}
