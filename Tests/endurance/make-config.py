#!/usr/bin/env python3
"""make-config.py VARIANT [--reload N] [--broken]: the endurance run's configuration files
(docs/reliability.md, "Endurance"), printed on stdout.

VARIANT
  machine      the kiosk's own file (/etc/kiosk-carousel/config.toml in the guest): DRM, the
               control socket and the metrics file in the unit's RuntimeDirectory, USB import
               (programs allowed from sticks), the knob, idle home/blank, pixel shift every 7 s,
               and the content below with its pictures and clip in /usr/share/kiosk-endurance;
  stick-a, stick-b
               a USB stick's kiosk-carousel/config.toml: the same item ids and schedule (so the
               schedule's `items` still name items after an import), other titles and
               pictures, paths relative to the stick's folder.
--reload N     titles carry "(reload N)": a reload that changes every card.
--broken       a file the kiosk refuses (`[display] pixel_shift = 99`, out of its range): the
               reload is refused with a located problem and the running configuration stays.
               In a table of the machine's own: after a USB import the stick's [[item]] table
               replaces the file's, so a bad item in the file is not read at all (the first
               4-hour run broke an item and saw its reloads adopted).

The content: a program item first (a foreground program that takes the screen for 5 s), a video
item (its clip loops while it rests at the centre; it is home_item, so an idle carousel returns
to it and plays it), six pictures. The schedule repeats every 6 minutes all day, every day: a
window with four of the items (2 min), a window with all of them (2 min), closed (2 min: the
screen blanks; a touch wakes it for 20 s).
"""
import sys

MEDIA = ['01-mountain-dawn.jpg', '02-lake-evening.jpg', '03-city-night.jpg', '04-forest-mist.jpg',
         '06-desert-dunes.png', '07-aurora.png', '08-ocean-waves.png', '09-bokeh-lights.png', '10-sunset-stripes.webp']
CYCLE_MINUTES = 6


def hhmm(minutes):
    return '%02d:%02d' % divmod(minutes, 60)


def schedule():
    out = []
    for start in range(0, 24 * 60, CYCLE_MINUTES):
        out.append('[[schedule]]\nfrom = "%s"\nto = "%s"\nitems = ["program", "film", "pic1", "pic2"]\n'
                   % (hhmm(start), hhmm(start + 2)))
        out.append('[[schedule]]\nfrom = "%s"\nto = "%s"\n' % (hhmm(start + 2), hhmm(start + 4)))
    out.append('[schedule_defaults]\noutside = "blank"\nwake_for = 20\nclock_grace = 0\n')
    return '\n'.join(out)


def items(variant, reload, media_dir, clip):
    tag = {'machine': 'Kiosk', 'stick-a': 'Stick A', 'stick-b': 'Stick B'}[variant]
    suffix = ' (reload %d)' % reload if reload else ''
    shift = {'machine': 0, 'stick-a': 3, 'stick-b': 6}[variant]
    out = ['[[item]]\nid = "program"\ntitle = "%s program%s"\n'
           'action = { exec = ["/usr/local/bin/endurance-fill-screen", "ff8000", "5"], mode = "foreground", timeout = 60 }\n'
           % (tag, suffix),
           '[[item]]\nid = "film"\ntitle = "%s film%s"\nvideo = "%s"\n' % (tag, suffix, clip)]
    for i in range(6):
        out.append('[[item]]\nid = "pic%d"\ntitle = "%s picture %d%s"\nimage = "%s/%s"\n'
                   % (i + 1, tag, i + 1, suffix, media_dir, MEDIA[(i + shift) % len(MEDIA)]))
    return '\n'.join(out)


def machine_tables(broken):
    return '''[display]
backend = "drm"
pixel_shift = %d
pixel_shift_interval = 7

[carousel]
type = "coverflow"
item_size = [240, 180]

[idle]
home_after = 15
home_item = "film"
blank_after = 40
warn_before = 0

[video]
start_delay = 0.3

[input.rotary]
name = "endurance-knob"
axis = "REL_DIAL"
select_key = "KEY_ENTER"

[control]
socket = "/run/kiosk-carousel/control.sock"

[metrics]
file = "/run/kiosk-carousel/metrics.prom"
interval = 5

[usb]
import = true
content = "/var/lib/kiosk-carousel/usb"
allow_exec = true
notice_seconds = 4
''' % (99 if broken else 2)


def main(argv):
    if not argv or argv[0] not in ('machine', 'stick-a', 'stick-b'):
        sys.exit(__doc__)
    if '--broken' in argv and argv[0] != 'machine':
        sys.exit('make-config.py: --broken is for the machine file')
    variant, reload, broken = argv[0], 0, False
    rest = argv[1:]
    while rest:
        if rest[0] == '--reload' and len(rest) > 1:
            reload, rest = int(rest[1]), rest[2:]
        elif rest[0] == '--broken':
            broken, rest = True, rest[1:]
        else:
            sys.exit('make-config.py: unknown argument %r\n%s' % (rest[0], __doc__))
    if variant == 'machine':
        text = machine_tables(broken) + '\n' + items(variant, reload, '/usr/share/kiosk-endurance/media',
                                               '/usr/share/kiosk-endurance/clip.mp4')
    else:
        text = items(variant, reload, 'pictures', 'clips/clip.mp4')
    text += '\n' + schedule()
    sys.stdout.write(text)


if __name__ == '__main__':
    main(sys.argv[1:])
