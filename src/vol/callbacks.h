// The hand-written callbacks, whose meaning differs from a plain forward (STYLE.md §1): file
// create/open/specific (the FAPL names us; the connector below needs its own), multi-dataset
// read/write (arrays of wrappers), link create/copy/move and object copy (two locations, a
// wrapped object inside the arguments), object open (the type is known only afterwards) and
// group mount (a wrapped file inside the arguments).
// Hard rule: the under call gets the under objects and an under FAPL, never our wrappers; its
// result is returned unchanged.
#pragma once

#include <hdf5.h>

#include <cstddef>

namespace provio::vol {

void* file_create(const char* name, unsigned flags, hid_t fcpl, hid_t fapl, hid_t dxpl, void** req);
void* file_open(const char* name, unsigned flags, hid_t fapl, hid_t dxpl, void** req);
herr_t file_specific(void* obj, H5VL_file_specific_args_t* args, hid_t dxpl, void** req);

herr_t dataset_read(std::size_t count, void* dset[], hid_t mem_type[], hid_t mem_space[], hid_t file_space[],
                    hid_t dxpl, void* buf[], void** req);
herr_t dataset_write(std::size_t count, void* dset[], hid_t mem_type[], hid_t mem_space[], hid_t file_space[],
                     hid_t dxpl, const void* buf[], void** req);

herr_t group_specific(void* obj, H5VL_group_specific_args_t* args, hid_t dxpl, void** req);

herr_t link_create(H5VL_link_create_args_t* args, void* obj, const H5VL_loc_params_t* loc, hid_t lcpl,
                   hid_t lapl, hid_t dxpl, void** req);
herr_t link_copy(void* src, const H5VL_loc_params_t* loc1, void* dst, const H5VL_loc_params_t* loc2,
                 hid_t lcpl, hid_t lapl, hid_t dxpl, void** req);
herr_t link_move(void* src, const H5VL_loc_params_t* loc1, void* dst, const H5VL_loc_params_t* loc2,
                 hid_t lcpl, hid_t lapl, hid_t dxpl, void** req);

void* object_open(void* obj, const H5VL_loc_params_t* loc, H5I_type_t* opened_type, hid_t dxpl, void** req);
herr_t object_copy(void* src, const H5VL_loc_params_t* loc1, const char* src_name, void* dst,
                   const H5VL_loc_params_t* loc2, const char* dst_name, hid_t ocpypl, hid_t lcpl, hid_t dxpl,
                   void** req);

}  // namespace provio::vol
