<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>ApprovalCard</name>
    <message numerus="yes">
        <source>  … (%n lines)</source>
        <translation>
            <numerusform>  … (%n lines)</numerusform>
            <numerusform>  … (%n lines)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>+%n more waiting</source>
        <translation>
            <numerusform>+%n more waiting</numerusform>
            <numerusform>+%n more waiting</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message numerus="yes">
        <source>{listed} is not on this session&apos;s roster, so nobody by that name gets this message (the text is sent as written). On the roster: {roster}.</source>
        <translation>
            <numerusform>{listed} is not on this session&apos;s roster, so nobody by that name gets this message (the text is sent as written). On the roster: {roster}.</numerusform>
            <numerusform>{listed} are not on this session&apos;s roster, so nobody by those names gets this message (the text is sent as written). On the roster: {roster}.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QueueWidget</name>
    <message numerus="yes">
        <source>Queued (%n)</source>
        <translation>
            <numerusform>Queued (%n)</numerusform>
            <numerusform>Queued (%n)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QuitController</name>
    <message numerus="yes">
        <source>There is no system tray here, so closing the window quits Foya.

Sessions still running: %n. Foya can quit as soon as they have finished and been stored, or keep running in a small window.</source>
        <translation>
            <numerusform>There is no system tray here, so closing the window quits Foya.

Sessions still running: %n. Foya can quit as soon as it has finished and been stored, or keep running in a small window.</numerusform>
            <numerusform>There is no system tray here, so closing the window quits Foya.

Sessions still running: %n. Foya can quit as soon as they have finished and been stored, or keep running in a small window.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Finishing running sessions before quitting (%n left)…</source>
        <translation>
            <numerusform>Finishing running sessions before quitting (%n left)…</numerusform>
            <numerusform>Finishing running sessions before quitting (%n left)…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrayAgent</name>
    <message numerus="yes">
        <source>+%n more</source>
        <translation>
            <numerusform>+%n more</numerusform>
            <numerusform>+%n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Updates in Foya: %n</source>
        <translation>
            <numerusform>Updates in Foya: %n</numerusform>
            <numerusform>Updates in Foya: %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>running: %n</source>
        <translation>
            <numerusform>running: %n</numerusform>
            <numerusform>running: %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>waiting for you: %n</source>
        <translation>
            <numerusform>waiting for you: %n</numerusform>
            <numerusform>waiting for you: %n</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VPStatusBlock</name>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more tool kind(s), counted in the totals above</source>
        <translation>
            <numerusform>%n more tool kind, counted in the totals above</numerusform>
            <numerusform>%n more tool kinds, counted in the totals above</numerusform>
        </translation>
    </message>
</context>
</TS>
