#!/bin/sh
# bytelens capture fixture: a hostile but harmless payload (printf octal escapes).
printf 'sgr: \033[1;35mmagenta\033[0m \033[38;5;208morange\033[0m\n'
printf 'title:\033]0;pwned-title\007|\n'
printf 'link: \033]8;;https://evil.example/x\033\\click me\033]8;;\033\\|\n'
printf 'clip:\033]52;c;ZWNobyBwd25lZA==\007|\n'
printf 'progress: 10%%\r\033[2Kprogress: 100%%\n'
printf 'split:\033[3'
sleep 0.4
printf '1mred-after-split\033[0m\n'
printf 'done\n'
exit 2
