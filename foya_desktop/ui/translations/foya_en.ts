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
    <name>ConfirmDialog</name>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryDialog</name>
    <message numerus="yes">
        <source>Removed %n entry(ies).</source>
        <translation>
            <numerusform>Removed %n entry.</numerusform>
            <numerusform>Removed %n entries.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MergeDialog</name>
    <message numerus="yes">
        <source>%n common turn(s) once, then {a} from A and {b} from B by the time you sent them:</source>
        <translation>
            <numerusform>%n common turn once, then {a} from A and {b} from B by the time you sent them:</numerusform>
            <numerusform>%n common turns once, then {a} from A and {b} from B by the time you sent them:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProjectActions</name>
    <message numerus="yes">
        <source>&lt;p&gt;The folder &lt;b&gt;{folder}&lt;/b&gt; and its files are &lt;b&gt;not touched&lt;/b&gt;. Foya forgets the project: its instruction and “always allow” rules, and %n session(s) with their history:&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;The folder &lt;b&gt;{folder}&lt;/b&gt; and its files are &lt;b&gt;not touched&lt;/b&gt;. Foya forgets the project: its instruction and “always allow” rules, and %n session with their history:&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;The folder &lt;b&gt;{folder}&lt;/b&gt; and its files are &lt;b&gt;not touched&lt;/b&gt;. Foya forgets the project: its instruction and “always allow” rules, and %n sessions with their history:&lt;/p&gt;</numerusform>
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

Sessions still running: %n. Foya quits as soon as they have finished and their replies are stored; the window stays open until then.</source>
        <translation>
            <numerusform>There is no system tray here, so closing the window quits Foya.

Sessions still running: %n. Foya quits as soon as it has finished and its reply is stored; the window stays open until then.</numerusform>
            <numerusform>There is no system tray here, so closing the window quits Foya.

Sessions still running: %n. Foya quits as soon as they have finished and their replies are stored; the window stays open until then.</numerusform>
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
    <name>RewindDialog</name>
    <message numerus="yes">
        <source>&lt;b&gt;%n message(s)&lt;/b&gt; — this one and everything after it — leave the timeline. Your message goes back into the composer so you can edit and resend it.</source>
        <translation>
            <numerusform>&lt;b&gt;%n message&lt;/b&gt; — this one and everything after it — leave the timeline. Your message goes back into the composer so you can edit and resend it.</numerusform>
            <numerusform>&lt;b&gt;%n messages&lt;/b&gt; — this one and everything after it — leave the timeline. Your message goes back into the composer so you can edit and resend it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RowRenderer</name>
    <message numerus="yes">
        <source>Thought · %n word(s)</source>
        <translation>
            <numerusform>Thought · %n word</numerusform>
            <numerusform>Thought · %n words</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>preparing a tool call… %n character(s)</source>
        <translation>
            <numerusform>preparing a tool call… %n character</numerusform>
            <numerusform>preparing a tool call… %n characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchWindow</name>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n message</numerusform>
            <numerusform>%n messages</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionFlows</name>
    <message numerus="yes">
        <source>Deleted “{title}” and %n sub-agent session(s).</source>
        <translation>
            <numerusform>Deleted “{title}” and %n sub-agent session.</numerusform>
            <numerusform>Deleted “{title}” and %n sub-agent sessions.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Its %n sub-agent session(s) go too:</source>
        <translation>
            <numerusform>Its %n sub-agent session goes too:</numerusform>
            <numerusform>Its %n sub-agent sessions go too:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) restored</source>
        <translation>
            <numerusform>%n file restored</numerusform>
            <numerusform>%n files restored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation>
            <numerusform>%n removed</numerusform>
            <numerusform>%n removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n left untouched</source>
        <translation>
            <numerusform>%n left untouched</numerusform>
            <numerusform>%n left untouched</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rewound: %n message(s) left the timeline.</source>
        <translation>
            <numerusform>Rewound: %n message left the timeline.</numerusform>
            <numerusform>Rewound: %n messages left the timeline.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rewound: %n message(s) left the timeline; {detail}.</source>
        <translation>
            <numerusform>Rewound: %n message left the timeline; {detail}.</numerusform>
            <numerusform>Rewound: %n messages left the timeline; {detail}.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SubAgentBanner</name>
    <message numerus="yes">
        <source>%n sub-agent(s) running: {links}</source>
        <translation>
            <numerusform>%n sub-agent running: {links}</numerusform>
            <numerusform>%n sub-agents running: {links}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Summaries</name>
    <message numerus="yes">
        <source>%n lines · {summary}</source>
        <translation>
            <numerusform>%n lines · {summary}</numerusform>
            <numerusform>%n lines · {summary}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n image(s)</source>
        <translation>
            <numerusform>%n image</numerusform>
            <numerusform>%n images</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TasksPanel</name>
    <message numerus="yes">
        <source>%n running</source>
        <translation>
            <numerusform>%n running</numerusform>
            <numerusform>%n running</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n finished</source>
        <translation>
            <numerusform>%n finished</numerusform>
            <numerusform>%n finished</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ToolRows</name>
    <message numerus="yes">
        <source>… (%n more character(s))</source>
        <translation>
            <numerusform>… (%n more character)</numerusform>
            <numerusform>… (%n more characters)</numerusform>
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
    <name>UsageDialog</name>
    <message numerus="yes">
        <source>{cost} + %n line(s) without a price</source>
        <translation>
            <numerusform>{cost} + %n line without a price</numerusform>
            <numerusform>{cost} + %n lines without a price</numerusform>
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
        <source>%Ln model request(s)</source>
        <translation>
            <numerusform>%Ln model request</numerusform>
            <numerusform>%Ln model requests</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln tool execution(s)</source>
        <translation>
            <numerusform>%Ln tool execution</numerusform>
            <numerusform>%Ln tool executions</numerusform>
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
<context>
    <name>WorktreeFlows</name>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;{branch}&lt;/b&gt; into &lt;b&gt;{base}&lt;/b&gt; in {repo}: %n commit(s).&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;{branch}&lt;/b&gt; into &lt;b&gt;{base}&lt;/b&gt; in {repo}: %n commit.&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;&lt;b&gt;{branch}&lt;/b&gt; into &lt;b&gt;{base}&lt;/b&gt; in {repo}: %n commits.&lt;/p&gt;</numerusform>
        </translation>
    </message>
</context>
</TS>
