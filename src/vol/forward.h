// The forwarding shapes every routine callback is made of (STYLE.md §1), each written once as a
// template over the under function: Fwd (forward, then a hook after success), Open (forward a
// create/open, wrap the new object, hook) and Close (forward a close or request free, hook,
// release the wrapper). Two argument layouts cover the under functions: the connector id right
// after the object, or after loc_params.
// Hard rule: a callback returns the under connector's result unchanged; only the under call is
// timed, and hooks run only after a success and only when tracing is on.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <type_traits>

#include "model/tick_clock.h"
#include "store/recorder.h"
#include "vol/naming.h"
#include "vol/native_calls.h"
#include "vol/object.h"
#include "vol/record.h"

namespace provio::vol {

// Every callback body runs inside one: `on` is the run-time tracing switch, read once per
// callback, and while recording, HDF5's POSIX calls meanwhile are nested (preload shim). The
// thread's state is looked up once, here, and only when recording: at level off nothing uses it
// (the preload shim records nothing either), and its lookup was a __tls_get_addr call per callback.
struct Scope {
  bool on = store::enabled();
  VolThread* thread = on ? &this_thread() : nullptr;
  store::Hdf5Scope nested{thread ? thread->state : nullptr};
};

// Runs `f`, timing it into `t` when `on` (wall-clock start, monotonic duration: tick_clock.h) and
// giving `t` the thread's recording state. `on` implies `s.on`. Always inline: out of line (GCC's
// choice once CallTimer::stop was forced inline) it cost a repeated H5Dwrite ~95 instructions more
// at every level, off included: a frame, and the under call's arguments through memory.
template <typename F>
[[gnu::always_inline]] inline auto timed(Scope& s, bool on, Timing& t, F&& f) {
  if (!on) return f();
  t.state = s.thread->state;
  model::clock::CallTimer timer;
  auto r = f();
  static_cast<model::clock::Timing&>(t) = timer.stop(s.thread->clock);
  return r;
}

// The under routine F with the connector id first after the object, or after the object and its
// location (`_at`): straight to the native class's member when the under connector is native
// (native_calls.h).
template <auto F, typename... A>
auto call_under(bool native, void* under, hid_t id, A... a) {
  if constexpr (NativeMember<F>::kMapped) {
    if (auto fn = native_member<F>(native)) return fn(under, a...);
  }
  return F(under, id, a...);
}
template <auto F, typename... A>
auto call_under_at(bool native, void* under, const H5VL_loc_params_t* loc, hid_t id, A... a) {
  if constexpr (NativeMember<F>::kMapped) {
    if (auto fn = native_member<F>(native)) return fn(under, loc, a...);
  }
  return F(under, loc, id, a...);
}

template <auto Hook>
constexpr bool kHooked = !std::is_same_v<decltype(Hook), std::nullptr_t>;

// The body every forward shares: `call(under object, under id)` runs the under function (timed
// only when a hook will record it), `hook(o, timing)` runs after a success when tracing. Inlined
// into its one caller: as a function of its own it was a second frame on every forwarded call.
template <typename R, bool Hooked, typename Call, typename Hook>
[[gnu::always_inline]] inline R forward(void* obj, void** req, Call&& call, Hook&& hook) {
  Scope s;
  Obj* o = as_obj(obj);
  const hid_t id = o->under_id;  // a refresh may replace `o` under us
  const bool native = o->native_under;
  Timing t;
  R r = timed(s, Hooked && s.on, t, [&] { return call(o->under, id, native); });
  wrap_request(req, id);
  if (Hooked && s.on && r >= 0) hook(o, t);
  return r;
}

// Shape 1: forward, then (when tracing) a hook after success.
template <auto F, auto Hook = nullptr>
struct Fwd;

template <typename R, typename... A, R (*F)(void*, hid_t, A...), auto Hook>
struct Fwd<F, Hook> {
  static R call(void* obj, A... a) {
    return forward<R, kHooked<Hook>>(
        obj, request_arg(a...),
        [&](void* under, hid_t id, bool native) { return call_under<F>(native, under, id, a...); },
        [&](Obj* o, const Timing& t) {
          if constexpr (kHooked<Hook>) Hook(o, t, a...);
        });
  }
};

template <typename R, typename... A, R (*F)(void*, const H5VL_loc_params_t*, hid_t, A...), auto Hook>
struct Fwd<F, Hook> {
  static R call(void* obj, const H5VL_loc_params_t* loc, A... a) {
    return forward<R, kHooked<Hook>>(
        obj, request_arg(a...),
        [&](void* under, hid_t id, bool native) { return call_under_at<F>(native, under, loc, id, a...); },
        [&](Obj* o, const Timing& t) {
          if constexpr (kHooked<Hook>) Hook(o, t, loc, a...);
        });
  }
};

// Token string conversions carry the object's type before the connector id.
template <typename R, typename... A, R (*F)(void*, H5I_type_t, hid_t, A...)>
struct Fwd<F, nullptr> {
  static R call(void* obj, H5I_type_t type, A... a) {
    Scope s;
    Obj* o = as_obj(obj);
    return F(o->under, type, o->under_id, a...);
  }
};

// Shape 2: forward a create/open, wrap the new object, then the hook type names and records it.
// Every such under function takes the new object's name right after the connector id.
template <auto F, H5I_type_t Type, typename Hook>
struct Open;

template <typename... A, void* (*F)(void*, const H5VL_loc_params_t*, hid_t, const char*, A...),
          H5I_type_t Type, typename Hook>
struct Open<F, Type, Hook> {
  static void* call(void* obj, const H5VL_loc_params_t* loc, const char* name, A... a) {
    Scope s;
    Obj* p = as_obj(obj);
    const hid_t id = p->under_id;
    Timing t;
    void* under =
        timed(s, s.on, t, [&] { return call_under_at<F>(p->native_under, p->under, loc, id, name, a...); });
    Obj* o = under ? new_child(under, id, p, Type) : nullptr;
    wrap_request(request_arg(a...), id);
    if (o && s.on) Hook::record(p, o, t, loc, name, a...);
    return o;
  }
};

// Shape 3: forward a close (or a request free); on success record, then release the wrapper.
template <auto F, auto Hook = nullptr>
struct Close;

template <typename... A, herr_t (*F)(void*, hid_t, A...), auto Hook>
struct Close<F, Hook> {
  static herr_t call(void* obj, A... a) {
    Scope s;
    Obj* o = as_obj(obj);
    const hid_t id = o->under_id;
    constexpr bool hooked = kHooked<Hook>;
    // Name the object while the under connector can still tell us its name.
    if (hooked && s.on) entity_of(o);
    Timing t;
    herr_t r =
        timed(s, s.on && hooked, t, [&] { return call_under<F>(o->native_under, o->under, id, a...); });
    wrap_request(request_arg(a...), id);
    if (r >= 0) {
      if constexpr (hooked) {
        if (s.on) Hook(o, t);
      }
      free_obj(o);
    }
    return r;
  }
};

}  // namespace provio::vol
