// The native connector is told by value (src/vol/native_id.h): whatever ID an under_vol=0 info
// string registered, as HDF5 2.x makes a fresh one for each registration.
#include "vol/native_id.h"

#include <H5VLpassthru.h>
#include <gtest/gtest.h>
#include <hdf5.h>

namespace provio::vol {
namespace {

TEST(NativeId, RegisteredByValueIsNative) {
  hid_t id = H5VLregister_connector_by_value(H5_VOL_NATIVE, H5P_VOL_INITIALIZE_DEFAULT);
  ASSERT_GE(id, 0);
  EXPECT_TRUE(is_native(id));
  // The library's own ID stays usable after the registration is closed.
  EXPECT_GE(H5VLclose(id), 0);
  EXPECT_TRUE(is_native(native_id()));
}

TEST(NativeId, OtherConnectorsAreNot) {
  EXPECT_FALSE(is_native(H5I_INVALID_HID));
  hid_t pass = H5VL_PASSTHRU;  // HDF5's own passthrough, registered by the macro, held by the library
  ASSERT_GE(pass, 0);
  EXPECT_FALSE(is_native(pass));
}

TEST(NativeId, ErrorStackKept) {
  H5Eclear2(H5E_DEFAULT);
  EXPECT_FALSE(is_native(H5P_DEFAULT + 12345));
  EXPECT_EQ(H5Eget_num(H5E_DEFAULT), 0);
}

}  // namespace
}  // namespace provio::vol
