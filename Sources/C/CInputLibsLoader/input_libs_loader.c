// libinput and libevdev opened on demand (include/input_libs_loader.h; the loading itself is
// CLibraryLoader's). Every function of theirs the program calls, checked by the compiler against
// their headers.
#include "input_libs_loader.h"

#include "library_loader_functions.h"

#pragma GCC visibility push(hidden)
#include <libevdev/libevdev.h>
#include <libinput.h>

enum { LIBEVDEV, LIBINPUT, LIBRARIES };
// libinput.so.10 since libinput 0.x (2014), libevdev.so.2 since libevdev 0.9 (2013).
static const char *const sonames[LIBRARIES] = { "libevdev.so.2", "libinput.so.10" };

#define KC_INPUT_FUNCTIONS(F, V) \
    F(LIBINPUT, int, libinput_device_config_calibration_get_default_matrix, (struct libinput_device *a0, float *a1), (a0, a1)) \
    F(LIBINPUT, int, libinput_device_config_calibration_has_matrix, (struct libinput_device *a0), (a0)) \
    F(LIBINPUT, enum libinput_config_status, libinput_device_config_calibration_set_matrix, (struct libinput_device *a0, const float *a1), (a0, a1)) \
    F(LIBINPUT, const char *, libinput_device_get_name, (struct libinput_device *a0), (a0)) \
    F(LIBINPUT, const char *, libinput_device_get_sysname, (struct libinput_device *a0), (a0)) \
    F(LIBINPUT, int, libinput_device_has_capability, (struct libinput_device *a0, enum libinput_device_capability a1), (a0, a1)) \
    F(LIBINPUT, struct libinput_device *, libinput_device_ref, (struct libinput_device *a0), (a0)) \
    F(LIBINPUT, struct libinput_device *, libinput_device_unref, (struct libinput_device *a0), (a0)) \
    F(LIBINPUT, int, libinput_dispatch, (struct libinput *a0), (a0)) \
    V(LIBINPUT, libinput_event_destroy, (struct libinput_event *a0), (a0)) \
    F(LIBINPUT, struct libinput_device *, libinput_event_get_device, (struct libinput_event *a0), (a0)) \
    F(LIBINPUT, struct libinput_event_keyboard *, libinput_event_get_keyboard_event, (struct libinput_event *a0), (a0)) \
    F(LIBINPUT, struct libinput_event_pointer *, libinput_event_get_pointer_event, (struct libinput_event *a0), (a0)) \
    F(LIBINPUT, struct libinput_event_touch *, libinput_event_get_touch_event, (struct libinput_event *a0), (a0)) \
    F(LIBINPUT, enum libinput_event_type, libinput_event_get_type, (struct libinput_event *a0), (a0)) \
    F(LIBINPUT, uint32_t, libinput_event_keyboard_get_key, (struct libinput_event_keyboard *a0), (a0)) \
    F(LIBINPUT, enum libinput_key_state, libinput_event_keyboard_get_key_state, (struct libinput_event_keyboard *a0), (a0)) \
    F(LIBINPUT, uint32_t, libinput_event_keyboard_get_seat_key_count, (struct libinput_event_keyboard *a0), (a0)) \
    F(LIBINPUT, uint64_t, libinput_event_keyboard_get_time_usec, (struct libinput_event_keyboard *a0), (a0)) \
    F(LIBINPUT, double, libinput_event_pointer_get_absolute_x_transformed, (struct libinput_event_pointer *a0, uint32_t a1), (a0, a1)) \
    F(LIBINPUT, double, libinput_event_pointer_get_absolute_y_transformed, (struct libinput_event_pointer *a0, uint32_t a1), (a0, a1)) \
    F(LIBINPUT, uint32_t, libinput_event_pointer_get_button, (struct libinput_event_pointer *a0), (a0)) \
    F(LIBINPUT, enum libinput_button_state, libinput_event_pointer_get_button_state, (struct libinput_event_pointer *a0), (a0)) \
    F(LIBINPUT, double, libinput_event_pointer_get_dx, (struct libinput_event_pointer *a0), (a0)) \
    F(LIBINPUT, double, libinput_event_pointer_get_dy, (struct libinput_event_pointer *a0), (a0)) \
    F(LIBINPUT, double, libinput_event_pointer_get_scroll_value, (struct libinput_event_pointer *a0, enum libinput_pointer_axis a1), (a0, a1)) \
    F(LIBINPUT, double, libinput_event_pointer_get_scroll_value_v120, (struct libinput_event_pointer *a0, enum libinput_pointer_axis a1), (a0, a1)) \
    F(LIBINPUT, uint32_t, libinput_event_pointer_get_seat_button_count, (struct libinput_event_pointer *a0), (a0)) \
    F(LIBINPUT, uint64_t, libinput_event_pointer_get_time_usec, (struct libinput_event_pointer *a0), (a0)) \
    F(LIBINPUT, int, libinput_event_pointer_has_axis, (struct libinput_event_pointer *a0, enum libinput_pointer_axis a1), (a0, a1)) \
    F(LIBINPUT, int32_t, libinput_event_touch_get_seat_slot, (struct libinput_event_touch *a0), (a0)) \
    F(LIBINPUT, uint64_t, libinput_event_touch_get_time_usec, (struct libinput_event_touch *a0), (a0)) \
    F(LIBINPUT, double, libinput_event_touch_get_x_transformed, (struct libinput_event_touch *a0, uint32_t a1), (a0, a1)) \
    F(LIBINPUT, double, libinput_event_touch_get_y_transformed, (struct libinput_event_touch *a0, uint32_t a1), (a0, a1)) \
    F(LIBINPUT, struct libinput_event *, libinput_get_event, (struct libinput *a0), (a0)) \
    F(LIBINPUT, int, libinput_get_fd, (struct libinput *a0), (a0)) \
    F(LIBINPUT, void *, libinput_get_user_data, (struct libinput *a0), (a0)) \
    V(LIBINPUT, libinput_log_set_handler, (struct libinput *a0, libinput_log_handler a1), (a0, a1)) \
    V(LIBINPUT, libinput_log_set_priority, (struct libinput *a0, enum libinput_log_priority a1), (a0, a1)) \
    F(LIBINPUT, struct libinput_device *, libinput_path_add_device, (struct libinput *a0, const char *a1), (a0, a1)) \
    F(LIBINPUT, struct libinput *, libinput_path_create_context, (const struct libinput_interface *a0, void *a1), (a0, a1)) \
    V(LIBINPUT, libinput_path_remove_device, (struct libinput_device *a0), (a0)) \
    F(LIBINPUT, int, libinput_resume, (struct libinput *a0), (a0)) \
    V(LIBINPUT, libinput_set_user_data, (struct libinput *a0, void *a1), (a0, a1)) \
    V(LIBINPUT, libinput_suspend, (struct libinput *a0), (a0)) \
    F(LIBINPUT, int, libinput_udev_assign_seat, (struct libinput *a0, const char *a1), (a0, a1)) \
    F(LIBINPUT, struct libinput *, libinput_udev_create_context, (const struct libinput_interface *a0, void *a1, struct udev *a2), (a0, a1, a2)) \
    F(LIBINPUT, struct libinput *, libinput_unref, (struct libinput *a0), (a0)) \
    V(LIBEVDEV, libevdev_free, (struct libevdev *a0), (a0)) \
    F(LIBEVDEV, int, libevdev_get_abs_maximum, (const struct libevdev *a0, unsigned int a1), (a0, a1)) \
    F(LIBEVDEV, int, libevdev_get_abs_minimum, (const struct libevdev *a0, unsigned int a1), (a0, a1)) \
    F(LIBEVDEV, int, libevdev_get_event_value, (const struct libevdev *a0, unsigned int a1, unsigned int a2), (a0, a1, a2)) \
    F(LIBEVDEV, const char *, libevdev_get_name, (const struct libevdev *a0), (a0)) \
    F(LIBEVDEV, int, libevdev_grab, (struct libevdev *a0, enum libevdev_grab_mode a1), (a0, a1)) \
    F(LIBEVDEV, int, libevdev_has_event_code, (const struct libevdev *a0, unsigned int a1, unsigned int a2), (a0, a1, a2)) \
    F(LIBEVDEV, int, libevdev_new_from_fd, (int a0, struct libevdev **a1), (a0, a1)) \
    F(LIBEVDEV, int, libevdev_next_event, (struct libevdev *a0, unsigned int a1, struct input_event *a2), (a0, a1, a2)) \
    F(LIBEVDEV, int, libevdev_set_clock_id, (struct libevdev *a0, int a1), (a0, a1))

KC_LOADER(KC_INPUT_FUNCTIONS, "libinput", sonames)

int kc_input_libs_load(char *error, size_t size) { return kc_library_set_load(&kc_loader_set, error, size); }

const char *kc_input_libs_sonames(void) { return kc_library_set_joined_sonames(&kc_loader_set); }
#pragma GCC visibility pop
