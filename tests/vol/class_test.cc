// The plugin as HDF5's loader sees it: the two exported symbols, the class identity, and every
// callback slot of H5VL_class_t filled (a null slot would make HDF5 refuse that operation with
// "not supported" instead of forwarding it: the connector must be a complete passthrough).
#include <H5PLextern.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

#ifndef PROVIO_VOL_PLUGIN
#error "PROVIO_VOL_PLUGIN (path of libprovio_vol.so) must be defined"
#endif

namespace {

const H5VL_class_t* load() {
  static void* handle = dlopen(PROVIO_VOL_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return nullptr;
  auto type = reinterpret_cast<H5PL_type_t (*)()>(dlsym(handle, "H5PLget_plugin_type"));
  auto info = reinterpret_cast<const void* (*)()>(dlsym(handle, "H5PLget_plugin_info"));
  if (!type || !info || type() != H5PL_TYPE_VOL) return nullptr;
  return static_cast<const H5VL_class_t*>(info());
}

TEST(VolClass, Identity) {
  const H5VL_class_t* c = load();
  ASSERT_NE(c, nullptr) << dlerror();
  EXPECT_EQ(c->version, static_cast<unsigned>(H5VL_VERSION));
  EXPECT_EQ(c->value, 421);
  EXPECT_STREQ(c->name, "provio");
  EXPECT_EQ(c->cap_flags, H5VL_CAP_FLAG_NONE);  // the real flags come from the connector below
}

TEST(VolClass, EverySlotFilled) {
  const H5VL_class_t* c = load();
  ASSERT_NE(c, nullptr);
  const std::vector<std::pair<const char*, bool>> slots = {
      {"initialize", c->initialize},
      {"terminate", c->terminate},
      {"info.copy", c->info_cls.copy},
      {"info.cmp", c->info_cls.cmp},
      {"info.free", c->info_cls.free},
      {"info.to_str", c->info_cls.to_str},
      {"info.from_str", c->info_cls.from_str},
      {"wrap.get_object", c->wrap_cls.get_object},
      {"wrap.get_wrap_ctx", c->wrap_cls.get_wrap_ctx},
      {"wrap.wrap_object", c->wrap_cls.wrap_object},
      {"wrap.unwrap_object", c->wrap_cls.unwrap_object},
      {"wrap.free_wrap_ctx", c->wrap_cls.free_wrap_ctx},
      {"attr.create", c->attr_cls.create},
      {"attr.open", c->attr_cls.open},
      {"attr.read", c->attr_cls.read},
      {"attr.write", c->attr_cls.write},
      {"attr.get", c->attr_cls.get},
      {"attr.specific", c->attr_cls.specific},
      {"attr.optional", c->attr_cls.optional},
      {"attr.close", c->attr_cls.close},
      {"dataset.create", c->dataset_cls.create},
      {"dataset.open", c->dataset_cls.open},
      {"dataset.read", c->dataset_cls.read},
      {"dataset.write", c->dataset_cls.write},
      {"dataset.get", c->dataset_cls.get},
      {"dataset.specific", c->dataset_cls.specific},
      {"dataset.optional", c->dataset_cls.optional},
      {"dataset.close", c->dataset_cls.close},
      {"datatype.commit", c->datatype_cls.commit},
      {"datatype.open", c->datatype_cls.open},
      {"datatype.get", c->datatype_cls.get},
      {"datatype.specific", c->datatype_cls.specific},
      {"datatype.optional", c->datatype_cls.optional},
      {"datatype.close", c->datatype_cls.close},
      {"file.create", c->file_cls.create},
      {"file.open", c->file_cls.open},
      {"file.get", c->file_cls.get},
      {"file.specific", c->file_cls.specific},
      {"file.optional", c->file_cls.optional},
      {"file.close", c->file_cls.close},
      {"group.create", c->group_cls.create},
      {"group.open", c->group_cls.open},
      {"group.get", c->group_cls.get},
      {"group.specific", c->group_cls.specific},
      {"group.optional", c->group_cls.optional},
      {"group.close", c->group_cls.close},
      {"link.create", c->link_cls.create},
      {"link.copy", c->link_cls.copy},
      {"link.move", c->link_cls.move},
      {"link.get", c->link_cls.get},
      {"link.specific", c->link_cls.specific},
      {"link.optional", c->link_cls.optional},
      {"object.open", c->object_cls.open},
      {"object.copy", c->object_cls.copy},
      {"object.get", c->object_cls.get},
      {"object.specific", c->object_cls.specific},
      {"object.optional", c->object_cls.optional},
      {"introspect.get_conn_cls", c->introspect_cls.get_conn_cls},
      {"introspect.get_cap_flags", c->introspect_cls.get_cap_flags},
      {"introspect.opt_query", c->introspect_cls.opt_query},
      {"request.wait", c->request_cls.wait},
      {"request.notify", c->request_cls.notify},
      {"request.cancel", c->request_cls.cancel},
      {"request.specific", c->request_cls.specific},
      {"request.optional", c->request_cls.optional},
      {"request.free", c->request_cls.free},
      {"blob.put", c->blob_cls.put},
      {"blob.get", c->blob_cls.get},
      {"blob.specific", c->blob_cls.specific},
      {"blob.optional", c->blob_cls.optional},
      {"token.cmp", c->token_cls.cmp},
      {"token.to_str", c->token_cls.to_str},
      {"token.from_str", c->token_cls.from_str},
      {"optional", c->optional},
  };
  EXPECT_EQ(slots.size(), 74u);  // every callback of H5VL_class_t in HDF5 1.14 (version 3)
  for (const auto& [name, filled] : slots) EXPECT_TRUE(filled) << name;
}

TEST(VolClass, OnlyThePluginSymbolsAreExported) {
  ASSERT_NE(load(), nullptr);
  void* handle = dlopen(PROVIO_VOL_PLUGIN, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(dlsym(handle, "_ZN6provio3vol11parse_infoESt17basic_string_viewIcSt11char_traitsIcEE"), nullptr);
  EXPECT_EQ(dlsym(handle, "_ZN6provio3vol15connector_classEv"), nullptr);
  dlclose(handle);
}

}  // namespace
