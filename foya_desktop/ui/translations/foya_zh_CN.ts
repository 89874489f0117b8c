<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <source>Forking</source>
        <translation>正在复刻</translation>
    </message>
    <message>
        <source>Branching</source>
        <translation>正在分支</translation>
    </message>
    <message>
        <source>Merging back</source>
        <translation>正在合并回去</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Restored the backup {backup}; the damaged database is kept as {damaged}.</source>
        <translation>已恢复备份 {backup}；损坏的数据库保留为 {damaged}。</translation>
    </message>
    <message>
        <source>The backup could not be restored: {why}</source>
        <translation>无法恢复备份：{why}</translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message>
        <source>No narrow rule can be made for this call (a pipeline or compound command, a network command, or no single path). Allow it once or for this session instead.</source>
        <translation>无法为此调用建立精确规则（管道或复合命令、网络命令，或不是单一路径）。请改为仅允许一次或在本会话中允许。</translation>
    </message>
    <message>
        <source>Foya asks for this call every time (a network command, a file that looks like it holds secrets, a file a trusted MCP server runs, or several files at once), so it cannot be allowed for the session. Allow it once instead.</source>
        <translation>Foya 每次都会为此调用询问（网络命令、看起来含有机密的文件、受信任的 MCP 服务器运行的文件，或一次涉及多个文件），因此无法在本会话中允许。请改为仅允许一次。</translation>
    </message>
    <message>
        <source>This session has no project folder, so there is no project to keep a rule for.</source>
        <translation>此会话没有项目文件夹，因此没有可保存规则的项目。</translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation>允许一次</translation>
    </message>
    <message>
        <source>Allow for this session</source>
        <translation>在本会话中允许</translation>
    </message>
    <message>
        <source>Always for this project</source>
        <translation>在此项目中始终允许</translation>
    </message>
    <message numerus="yes">
        <source>  … (%n lines)</source>
        <translation>
            <numerusform>  …（%n 行）</numerusform>
        </translation>
    </message>
    <message>
        <source>{who} wants to use {tool}</source>
        <translation>{who} 想要使用 {tool}</translation>
    </message>
    <message>
        <source>Show the call ↑</source>
        <translation>显示该调用 ↑</translation>
    </message>
    <message>
        <source>Scroll the timeline to the tool call this request is about</source>
        <translation>将时间线滚动到此请求对应的工具调用</translation>
    </message>
    <message>
        <source>Why you are asked: {reason}</source>
        <translation>询问原因：{reason}</translation>
    </message>
    <message>
        <source>Why not? (optional)</source>
        <translation>为什么拒绝？（可选）</translation>
    </message>
    <message>
        <source>Optional: the agent reads why you said no and tries another way</source>
        <translation>可选：智能体会读到你拒绝的原因并尝试其他方式</translation>
    </message>
    <message>
        <source>▸ All arguments</source>
        <translation>▸ 全部参数</translation>
    </message>
    <message>
        <source>All arguments</source>
        <translation>全部参数</translation>
    </message>
    <message>
        <source>Keep a narrow rule for exactly this command or path in this project.</source>
        <translation>在此项目中为这条命令或这个路径保存一条精确规则。</translation>
    </message>
    <message>
        <source>Until the app quits; not kept, not copied by branch or fork. A chain of commands is allowed exactly as written.</source>
        <translation>直到应用退出；不会保存，分支或派生时也不会复制。命令链按原样精确允许。</translation>
    </message>
    <message>
        <source>Deny &amp;&amp; stop</source>
        <translation>拒绝并停止</translation>
    </message>
    <message>
        <source>Deny &amp;&amp; tell the agent</source>
        <translation>拒绝并告知智能体</translation>
    </message>
    <message>
        <source>The agent gets your words as the tool&apos;s result and continues.</source>
        <translation>智能体会把你的话作为工具结果收到，然后继续。</translation>
    </message>
    <message>
        <source>Without a reason the turn stops here.</source>
        <translation>不填写原因时，本轮将在此停止。</translation>
    </message>
    <message>
        <source>Sending your answer…</source>
        <translation>正在发送你的回复…</translation>
    </message>
    <message numerus="yes">
        <source>+%n more waiting</source>
        <translation>
            <numerusform>另有 %n 个等待中</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ApprovalSummary</name>
    <message>
        <source>Write {what}</source>
        <translation>写入 {what}</translation>
    </message>
    <message>
        <source>Edit {what}</source>
        <translation>编辑 {what}</translation>
    </message>
    <message>
        <source>Read {what}</source>
        <translation>读取 {what}</translation>
    </message>
    <message>
        <source>List {what}</source>
        <translation>列出 {what}</translation>
    </message>
    <message>
        <source>View the image {what}</source>
        <translation>查看图片 {what}</translation>
    </message>
    <message>
        <source>Load the skill {what}</source>
        <translation>加载技能 {what}</translation>
    </message>
    <message>
        <source>Start a sub-agent: {what}</source>
        <translation>启动子智能体：{what}</translation>
    </message>
    <message>
        <source>Hand over to {what}</source>
        <translation>转交给 {what}</translation>
    </message>
    <message>
        <source>Load the schema of {what}</source>
        <translation>加载 {what} 的参数结构</translation>
    </message>
    <message>
        <source>Find {pattern} in {where}</source>
        <translation>在 {where} 中查找 {pattern}</translation>
    </message>
    <message>
        <source>Search {pattern} in {where}</source>
        <translation>在 {where} 中搜索 {pattern}</translation>
    </message>
</context>
<context>
    <name>AttachmentChips</name>
    <message>
        <source>Sent to the model as an image</source>
        <translation>以图片形式发送给模型</translation>
    </message>
    <message>
        <source>Sent as the file&apos;s text inside the message</source>
        <translation>以文件文本的形式放在消息中发送</translation>
    </message>
    <message>
        <source>Remove {name}</source>
        <translation>移除 {name}</translation>
    </message>
</context>
<context>
    <name>Attachments</name>
    <message>
        <source>Images up to {image_mb} MB (PNG, JPEG, GIF, WebP); text files up to {text_kb} KB; at most {count} per message.</source>
        <translation>图片最大 {image_mb} MB（PNG、JPEG、GIF、WebP）；文本文件最大 {text_kb} KB；每条消息最多 {count} 个。</translation>
    </message>
    <message>
        <source>{name} is {size}; images can be at most {limit} MB.</source>
        <translation>{name} 大小为 {size}；图片最大为 {limit} MB。</translation>
    </message>
    <message>
        <source>{name} is {size}; text files can be at most {limit} KB. Mention its path instead and let the agent read it.</source>
        <translation>{name} 大小为 {size}；文本文件最大为 {limit} KB。请改为提及它的路径，让智能体自行读取。</translation>
    </message>
    <message>
        <source>{name} is neither an image (PNG, JPEG, GIF, WebP) nor a UTF-8 text file, so it cannot be attached. Mention its path instead.</source>
        <translation>{name} 既不是图片（PNG、JPEG、GIF、WebP），也不是 UTF-8 文本文件，无法作为附件。请改为提及它的路径。</translation>
    </message>
    <message>
        <source>{name} is {size}; that is too large to attach.</source>
        <translation>{name} 大小为 {size}，太大，无法作为附件。</translation>
    </message>
    <message>
        <source>{name} could not be read: {reason}.</source>
        <translation>无法读取 {name}：{reason}。</translation>
    </message>
    <message>
        <source>The pasted image could not be read.</source>
        <translation>无法读取粘贴的图片。</translation>
    </message>
</context>
<context>
    <name>Boundaries</name>
    <message>
        <source>only your own messages can be rewound to</source>
        <translation>只能回退到你自己发送的消息</translation>
    </message>
    <message>
        <source>a sub-agent&apos;s session is read-only</source>
        <translation>子智能体的会话是只读的</translation>
    </message>
    <message>
        <source>messages with images cannot go back to the composer</source>
        <translation>含图片的消息无法放回输入框</translation>
    </message>
    <message>
        <source>messages with browser elements or a command cannot go back to the composer</source>
        <translation>含浏览器元素或命令的消息无法放回输入框</translation>
    </message>
    <message>
        <source>stop the running reply first</source>
        <translation>请先停止正在进行的回复</translation>
    </message>
</context>
<context>
    <name>BroadProject</name>
    <message>
        <source>{folder} is the root of the file system.</source>
        <translation>{folder} 是文件系统的根目录。</translation>
    </message>
    <message>
        <source>{folder} is your home folder.</source>
        <translation>{folder} 是你的主文件夹。</translation>
    </message>
    <message>
        <source>{folder} contains your home folder.</source>
        <translation>{folder} 包含你的主文件夹。</translation>
    </message>
    <message>
        <source>Foya&apos;s data folder is inside {folder}.</source>
        <translation>Foya 的数据文件夹位于 {folder} 之内。</translation>
    </message>
    <message>
        <source>Commands could read or change Foya&apos;s own database (your sessions and the “always allow” rules, which later sessions obey), and every other file in it.</source>
        <translation>命令可以读取或修改 Foya 自己的数据库（你的会话，以及之后的会话都会遵守的“始终允许”规则），以及其中的所有其他文件。</translation>
    </message>
    <message>
        <source>Commands could read or change your other projects, your settings and keys, and Foya&apos;s own database (your sessions and the “always allow” rules).</source>
        <translation>命令可以读取或修改你的其他项目、你的设置和密钥，以及 Foya 自己的数据库（你的会话和“始终允许”规则）。</translation>
    </message>
    <message>
        <source>Tools and commands may read and change everything inside a project.</source>
        <translation>工具和命令可以读取并修改项目内的一切。</translation>
    </message>
    <message>
        <source>Almost no confinement is left. Choose a smaller folder (the project itself) unless you really mean it.</source>
        <translation>这样几乎不剩任何限制。请选择更小的文件夹（项目本身），除非你确实有意如此。</translation>
    </message>
    <message>
        <source>Very broad project folder</source>
        <translation>范围过大的项目文件夹</translation>
    </message>
    <message>
        <source>Use {folder} as a project?</source>
        <translation>将 {folder} 用作项目？</translation>
    </message>
    <message>
        <source>Use it anyway</source>
        <translation>仍然使用</translation>
    </message>
</context>
<context>
    <name>Canvas</name>
    <message>
        <source>Copied ✓</source>
        <translation>已复制 ✓</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy error</source>
        <translation>复制错误</translation>
    </message>
</context>
<context>
    <name>CheckpointRow</name>
    <message>
        <source>Earlier messages summarised for the model — the timeline keeps everything</source>
        <translation>更早的消息已为模型生成摘要 — 时间线保留全部内容</translation>
    </message>
</context>
<context>
    <name>Checkpoints</name>
    <message>
        <source>↻ Auto-compacted · </source>
        <translation>↻ 已自动压缩 · </translation>
    </message>
    <message>
        <source>↻ Compacted · </source>
        <translation>↻ 已压缩 · </translation>
    </message>
</context>
<context>
    <name>ChildBanner</name>
    <message>
        <source>Read-only: this is a sub-agent&apos;s session</source>
        <translation>只读：这是子智能体的会话</translation>
    </message>
    <message>
        <source>A sub-agent</source>
        <translation>一个子智能体</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Attach images or text files.</source>
        <translation>附加图片或文本文件。</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop, keep queue</source>
        <translation>停止，保留队列</translation>
    </message>
    <message>
        <source>Stop and clear queue</source>
        <translation>停止并清空队列</translation>
    </message>
    <message>
        <source>Interrupt and send next</source>
        <translation>中断并发送下一条</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>加入队列</translation>
    </message>
    <message>
        <source>Add to the queue; it is sent when the current turn ends</source>
        <translation>加入队列；当前轮次结束后发送</translation>
    </message>
    <message>
        <source>@ to address a VP · </source>
        <translation>用 @ 指定 VP · </translation>
    </message>
    <message>
        <source>nobody</source>
        <translation>无人</translation>
    </message>
    <message numerus="yes">
        <source>{listed} is not on this session&apos;s roster, so nobody by that name gets this message (the text is sent as written). On the roster: {roster}.</source>
        <translation>
            <numerusform>{listed} 不在此会话的成员中，所以没有这个名字的成员会收到此消息（文本将按原样发送）。成员：{roster}。</numerusform>
        </translation>
    </message>
    <message>
        <source>{name} was not attached: at most {count} per message.</source>
        <translation>{name} 未附加：每条消息最多 {count} 个附件。</translation>
    </message>
    <message>
        <source>Attach files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <source>Stop the current reply (Esc; the queue is kept, paused)</source>
        <translation>停止当前回复（Esc；队列保留并暂停）</translation>
    </message>
    <message>
        <source>Send ({keys})</source>
        <translation>发送（{keys}）</translation>
    </message>
    <message>
        <source>Ctrl+Enter to send, Enter for a new line</source>
        <translation>Ctrl+Enter 发送，Enter 换行</translation>
    </message>
    <message>
        <source>Enter to send, Shift+Enter for a new line</source>
        <translation>Enter 发送，Shift+Enter 换行</translation>
    </message>
    <message>
        <source>Message {name} — {hint}{keys}</source>
        <translation>发消息给 {name} — {hint}{keys}</translation>
    </message>
    <message>
        <source>Images and text (*.png *.jpg *.jpeg *.gif *.webp *.txt *.md *.py *.json *.csv *.log *.yaml *.yml *.toml)</source>
        <translation>图片和文本 (*.png *.jpg *.jpeg *.gif *.webp *.txt *.md *.py *.json *.csv *.log *.yaml *.yml *.toml)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>ConfirmDialog</name>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>…… 以及另外 %n 项</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ConnectionsDialog</name>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>兼容 OpenAI</translation>
    </message>
    <message>
        <source>Stored in the system keyring; leave empty to keep the current key</source>
        <translation>保存在系统密钥环中；留空则保留当前密钥</translation>
    </message>
    <message>
        <source>Use an environment variable</source>
        <translation>改用环境变量</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Base URL</translation>
    </message>
    <message>
        <source>Default model</source>
        <translation>默认模型</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Key from env var</source>
        <translation>密钥环境变量</translation>
    </message>
    <message>
        <source>Context window (tokens)</source>
        <translation>上下文窗口（token）</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>API keys cannot be saved here; set an environment variable and enter its name below.</source>
        <translation>此处无法保存 API 密钥；请设置一个环境变量，并在下方填写它的名称。</translation>
    </message>
    <message>
        <source>e.g. {variable} (read from the environment instead)</source>
        <translation>例如 {variable}（改为从环境变量读取）</translation>
    </message>
    <message>
        <source>Close without saving?</source>
        <translation>不保存就关闭？</translation>
    </message>
    <message>
        <source>The changes to “{name}” are not saved.</source>
        <translation>对“{name}”的修改尚未保存。</translation>
    </message>
    <message>
        <source>The connection you were entering is not saved.</source>
        <translation>正在填写的连接尚未保存。</translation>
    </message>
    <message>
        <source>Close without saving</source>
        <translation>不保存并关闭</translation>
    </message>
    <message>
        <source>A connection needs a name and a base URL.</source>
        <translation>连接需要名称和 Base URL。</translation>
    </message>
    <message>
        <source>Saving the connection</source>
        <translation>保存连接</translation>
    </message>
    <message>
        <source>Saved “{name}”.</source>
        <translation>已保存“{name}”。</translation>
    </message>
    <message>
        <source>Testing the connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Listing models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <source>Enter the base URL first.</source>
        <translation>请先填写 Base URL。</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <source>The test failed: {reason}</source>
        <translation>测试失败：{reason}</translation>
    </message>
    <message>
        <source>The connection works: {model} answered.</source>
        <translation>连接正常：{model} 已回应。</translation>
    </message>
    <message>
        <source>The server&apos;s context window is {tokens} tokens.</source>
        <translation>服务器的上下文窗口为 {tokens} 个 token。</translation>
    </message>
    <message>
        <source>Its chat template does not pass tools to the model; tools are off.</source>
        <translation>它的聊天模板不会把工具传给模型；工具已关闭。</translation>
    </message>
    <message>
        <source>Cannot list the models: {reason}</source>
        <translation>无法列出模型：{reason}</translation>
    </message>
    <message>
        <source>{count} models offered; type to filter, or enter any other name.</source>
        <translation>提供了 {count} 个模型；输入可筛选，也可填写其他任意名称。</translation>
    </message>
    <message>
        <source>Removing the connection</source>
        <translation>移除连接</translation>
    </message>
    <message>
        <source>Removed “{name}”.</source>
        <translation>已移除“{name}”。</translation>
    </message>
</context>
<context>
    <name>DebugPanel</name>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>speaker</source>
        <translation>发言者</translation>
    </message>
    <message>
        <source>model / tool</source>
        <translation>模型 / 工具</translation>
    </message>
    <message>
        <source>tokens in / out</source>
        <translation>token 输入 / 输出</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>停止原因</translation>
    </message>
    <message>
        <source>first byte</source>
        <translation>首字节</translation>
    </message>
    <message>
        <source>duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>retries</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>The turn whose model requests and tool calls are shown</source>
        <translation>显示其模型请求和工具调用的轮次</translation>
    </message>
    <message>
        <source>Turn:</source>
        <translation>轮次：</translation>
    </message>
    <message>
        <source>Turn {number} · {id}</source>
        <translation>第 {number} 轮 · {id}</translation>
    </message>
    <message>
        <source>No traces yet: send a message</source>
        <translation>暂无调试记录：请先发送一条消息</translation>
    </message>
    <message>
        <source>{ms} ms</source>
        <translation>{ms} 毫秒</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>被拦截</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>{count} chars</source>
        <translation>{count} 个字符</translation>
    </message>
    <message>
        <source>tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>request</source>
        <translation>请求</translation>
    </message>
</context>
<context>
    <name>ElidedLabel</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>ErrorText</name>
    <message>
        <source>The session is busy; the message waits in the queue.</source>
        <translation>会话正忙，消息已在队列中等待。</translation>
    </message>
    <message>
        <source>The session is busy. Stop the running turn first.</source>
        <translation>会话正忙。请先停止正在运行的轮次。</translation>
    </message>
    <message>
        <source>Cannot branch inside the turn that is still running: branch after an earlier turn&apos;s reply, or wait until this one ends.</source>
        <translation>无法在仍在运行的轮次内创建分支：请在更早一轮的回复之后分支，或等待本轮结束。</translation>
    </message>
    <message>
        <source>This session has been deleted.</source>
        <translation>此会话已被删除。</translation>
    </message>
    <message>
        <source>The question was closed without an answer.</source>
        <translation>该问题未经回答即被关闭。</translation>
    </message>
    <message>
        <source>Cannot branch at a user message: branch after a complete reply or tool result instead.</source>
        <translation>无法在用户消息处分支：请改为在完整的回复或工具结果之后分支。</translation>
    </message>
    <message>
        <source>Cannot branch after a reply that did not complete: branch after an earlier complete reply or tool result.</source>
        <translation>无法在未完成的回复之后分支：请在更早的完整回复或工具结果之后分支。</translation>
    </message>
    <message>
        <source>Cannot branch after a tool call without its result: branch after the tool result instead.</source>
        <translation>无法在没有结果的工具调用之后分支：请改为在工具结果之后分支。</translation>
    </message>
    <message>
        <source>Cannot branch here: a tool call before this point gets its result only after it. Branch after the tool result.</source>
        <translation>无法在此处分支：此处之前的某个工具调用要到之后才得到结果。请在工具结果之后分支。</translation>
    </message>
    <message>
        <source>The folder {folder} is too broad to be a project (the root, your home folder, or around Foya&apos;s data folder): tools and commands could reach nearly everything. It needs your explicit confirmation.</source>
        <translation>文件夹 {folder} 范围过大，不适合作为项目（根目录、你的主文件夹，或包含 Foya 数据文件夹的文件夹）：工具和命令几乎可以触及一切。需要你明确确认。</translation>
    </message>
    <message>
        <source>This message has attachments (images). Only plain-text messages can go back to the composer, so the history cannot be rewound to it.</source>
        <translation>这条消息带有附件（图片）。只有纯文本消息才能放回输入框，因此无法将历史回退到这里。</translation>
    </message>
    <message>
        <source>This message carries browser elements or a command id; only plain-text messages can go back to the composer, so it cannot be rewound to.</source>
        <translation>这条消息带有浏览器元素或命令 ID；只有纯文本消息才能放回输入框，因此无法回退到这里。</translation>
    </message>
    <message>
        <source>A fork of this session is already being made; wait for it to open.</source>
        <translation>此会话正在派生中，请等待新会话打开。</translation>
    </message>
    <message>
        <source>The session or its files changed since the preview; check the new preview.</source>
        <translation>预览之后会话或其文件已发生变化，请查看新的预览。</translation>
    </message>
    <message>
        <source>{vp}&apos;s reply was cut off at the length limit ({max_tokens} tokens); ask it to continue.</source>
        <translation>{vp} 的回复在长度上限（{max_tokens} 个 token）处被截断；请让它继续。</translation>
    </message>
    <message>
        <source>{vp} reached its limit of {max_steps} steps.</source>
        <translation>{vp} 已达到 {max_steps} 步的上限。</translation>
    </message>
    <message>
        <source>{vp} reached its limit of {max_steps} steps because its tool calls kept failing: in the last {failing} steps it sent none that could run (each failure was returned to it).</source>
        <translation>{vp} 已达到 {max_steps} 步的上限，因为它的工具调用一再失败：最近 {failing} 步里没有一个调用能够运行（每次失败都已告知它）。</translation>
    </message>
    <message>
        <source>You rejected the tool call without a reason, so the turn stopped.</source>
        <translation>你未说明原因就拒绝了工具调用，因此本轮已停止。</translation>
    </message>
    <message>
        <source>Stopped; nothing was changed.</source>
        <translation>已停止；没有做任何更改。</translation>
    </message>
    <message>
        <source>The branch {branch} already exists; pick it as an existing branch, or name a new one.</source>
        <translation>分支 {branch} 已存在；请把它选作已有分支，或另起一个新名字。</translation>
    </message>
    <message>
        <source>This session&apos;s folder is not a git worktree Foya made.</source>
        <translation>此会话的文件夹不是 Foya 创建的 git 工作树。</translation>
    </message>
    <message>
        <source>The worktree has uncommitted files; commit them first (a merge takes commits only).</source>
        <translation>工作树中有未提交的文件；请先提交（合并只会带走提交）。</translation>
    </message>
    <message>
        <source>The worktree holds work that is not in {base}: {commits} commit(s) on {branch} and {files} uncommitted file(s); removing it needs a second confirmation.</source>
        <translation>工作树中有尚未进入 {base} 的工作：{branch} 上的 {commits} 个提交和 {files} 个未提交的文件；移除它需要再次确认。</translation>
    </message>
    <message>
        <source>The WorkItem&apos;s action graph cannot run ({action}).</source>
        <translation>该工作项的动作图无法运行（{action}）。</translation>
    </message>
    <message>
        <source>The WorkItem names a VP that is not in the library: {vp}.</source>
        <translation>该工作项指定的 VP 不在 VP 库中：{vp}。</translation>
    </message>
    <message>
        <source>The WorkItem&apos;s working folder does not exist: {folder}.</source>
        <translation>该工作项的工作文件夹不存在：{folder}。</translation>
    </message>
    <message>
        <source>The check command {command} is refused by the command policy: {reason}.</source>
        <translation>检查命令 {command} 被命令策略拒绝：{reason}。</translation>
    </message>
    <message>
        <source>The Work Center of this data folder is running in another foya process (pid {pid}).</source>
        <translation>此数据文件夹的工作中心正在另一个 foya 进程中运行（pid {pid}）。</translation>
    </message>
    <message>
        <source>The WorkItem {item} cannot do that while it is {state}.</source>
        <translation>工作项 {item} 处于“{state}”状态，无法执行此操作。</translation>
    </message>
    <message>
        <source>This session is {doing} {where}. Wait until it has finished there, or stop it there, then try again.</source>
        <translation>此会话正{doing}（{where}）。请等它在那里完成，或在那里停止它，然后再试。</translation>
    </message>
    <message>
        <source>running a turn</source>
        <translation>在运行一轮对话</translation>
    </message>
    <message>
        <source>running a sub-agent</source>
        <translation>在运行子代理</translation>
    </message>
    <message>
        <source>being rewound</source>
        <translation>在回退</translation>
    </message>
    <message>
        <source>being deleted</source>
        <translation>在删除</translation>
    </message>
    <message>
        <source>being compacted</source>
        <translation>在压缩</translation>
    </message>
    <message>
        <source>busy with an operation</source>
        <translation>忙于一项操作</translation>
    </message>
    <message>
        <source>in the Foya window (pid {pid})</source>
        <translation>在 Foya 窗口中，pid {pid}</translation>
    </message>
    <message>
        <source>in another foya process (pid {pid})</source>
        <translation>在另一个 foya 进程中，pid {pid}</translation>
    </message>
    <message>
        <source>The model service refused the API key (missing, wrong or no access).</source>
        <translation>模型服务拒绝了 API 密钥（缺失、错误或无访问权限）。</translation>
    </message>
    <message>
        <source>The model service is limiting requests; try again in a moment.</source>
        <translation>模型服务正在限制请求频率，请稍后重试。</translation>
    </message>
    <message>
        <source>The model service is overloaded or failing; try again later.</source>
        <translation>模型服务过载或出现故障，请稍后重试。</translation>
    </message>
    <message>
        <source>The conversation is longer than the model&apos;s context window; compact it or start a branch.</source>
        <translation>对话长度超出了模型的上下文窗口，请压缩对话或新建分支。</translation>
    </message>
    <message>
        <source>Cannot reach the model service (refused, name or TLS failure).</source>
        <translation>无法连接模型服务（连接被拒绝、域名解析或 TLS 失败）。</translation>
    </message>
    <message>
        <source>The model service took too long to answer.</source>
        <translation>模型服务响应超时。</translation>
    </message>
    <message>
        <source>The reply stopped before it was complete.</source>
        <translation>回复在完成前中断了。</translation>
    </message>
    <message>
        <source>The reply was too large and was stopped so it cannot fill the memory.</source>
        <translation>回复过大，已被停止，以免占满内存。</translation>
    </message>
    <message>
        <source>The model service sent something Foya cannot read.</source>
        <translation>模型服务返回了 Foya 无法解析的内容。</translation>
    </message>
    <message>
        <source>The model service reported an error while replying.</source>
        <translation>模型服务在回复过程中报告了错误。</translation>
    </message>
    <message>
        <source>The model service could not read the model&apos;s reply as a tool call or text.</source>
        <translation>模型服务无法把模型的回复识别为工具调用或文本。</translation>
    </message>
    <message>
        <source>The model service call failed.</source>
        <translation>调用模型服务失败。</translation>
    </message>
    <message>
        <source>This system has no secure keyring, so API keys cannot be stored.</source>
        <translation>此系统没有安全的密钥环，无法保存 API 密钥。</translation>
    </message>
    <message>
        <source>Another program kept Foya&apos;s database locked for too long.</source>
        <translation>另一个程序锁定 Foya 的数据库时间过长。</translation>
    </message>
    <message>
        <source>The disk is full; Foya could not save.</source>
        <translation>磁盘已满，Foya 无法保存。</translation>
    </message>
    <message>
        <source>Foya&apos;s data folder cannot be written.</source>
        <translation>无法写入 Foya 的数据文件夹。</translation>
    </message>
    <message>
        <source>Something of another kind is where Foya&apos;s database or data folder belongs; nothing there was changed.</source>
        <translation>Foya 的数据库或数据文件夹所在位置是另一种东西；那里没有任何改动。</translation>
    </message>
    <message>
        <source>Foya&apos;s database file is damaged; it is not written to.</source>
        <translation>Foya 的数据库文件已损坏，不会再写入。</translation>
    </message>
    <message>
        <source>The database was written by a newer Foya; update Foya to open it.</source>
        <translation>该数据库由更新版本的 Foya 写入，请升级 Foya 后再打开。</translation>
    </message>
    <message>
        <source>The database records a schema version Foya never wrote.</source>
        <translation>数据库记录的架构版本不是 Foya 写入过的版本。</translation>
    </message>
    <message>
        <source>Foya&apos;s data folder cannot be used.</source>
        <translation>无法使用 Foya 的数据文件夹。</translation>
    </message>
    <message>
        <source>Foya could not upgrade its database; it was not changed, and a copy is kept.</source>
        <translation>Foya 无法升级其数据库；数据库未被改动，并已保留一份副本。</translation>
    </message>
    <message>
        <source>The path is outside the session&apos;s project folder.</source>
        <translation>该路径位于会话的项目文件夹之外。</translation>
    </message>
    <message>
        <source>These sessions cannot be merged.</source>
        <translation>这些会话无法合并。</translation>
    </message>
    <message>
        <source>Foya hit an internal error (a bug); the log has the details.</source>
        <translation>Foya 遇到了内部错误（程序缺陷）；详情见日志。</translation>
    </message>
    <message>
        <source>{summary} ({detail})</source>
        <translation>{summary}（{detail}）</translation>
    </message>
    <message>
        <source>{vp}: {error}</source>
        <translation>{vp}：{error}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>This session is {doing} {where}; the queue is paused: resume it once that has finished.</source>
        <translation>此会话正{doing}（{where}）；队列已暂停：等它完成后再继续队列。</translation>
    </message>
    <message>
        <source>The request failed.</source>
        <translation>请求失败。</translation>
    </message>
    <message>
        <source>{reason} Retrying in {delay} s (attempt {attempt}).</source>
        <translation>{reason} 将在 {delay} 秒后重试（第 {attempt} 次）。</translation>
    </message>
    <message>
        <source>Automatic compaction failed; the turn goes on without it: {reason}</source>
        <translation>自动压缩失败；本轮将在不压缩的情况下继续：{reason}</translation>
    </message>
    <message>
        <source>{host}&apos;s chat template does not pass tools to the model; tools are off for {connection} (start the server with a template that supports tools, e.g. llama.cpp&apos;s --jinja).</source>
        <translation>{host} 的聊天模板不会把工具传给模型；连接 {connection} 的工具已关闭（请用支持工具的模板启动服务器，例如 llama.cpp 的 --jinja）。</translation>
    </message>
    <message>
        <source>The conversation was longer than this model&apos;s context window of {window} tokens: Foya compacted the earlier history and sent the request again.</source>
        <translation>对话超出了此模型 {window} 个 token 的上下文窗口：Foya 已压缩较早的历史并重新发送请求。</translation>
    </message>
    <message>
        <source>The conversation was longer than this model&apos;s context window of {window} tokens: Foya now keeps within it and sent the request again.</source>
        <translation>对话超出了此模型 {window} 个 token 的上下文窗口：Foya 现在按此窗口控制长度，并已重新发送请求。</translation>
    </message>
    <message>
        <source>This project&apos;s .mcp.json configures MCP servers you have not trusted, so none of them started: {servers}. Trust them in the window (File → MCP servers…) or with `foya projects trust {project}`.</source>
        <translation>此项目的 .mcp.json 配置了你尚未信任的 MCP 服务器，因此一个都没有启动：{servers}。可在窗口中（文件 → MCP 服务器…）或用 `foya projects trust {project}` 信任它们。</translation>
    </message>
    <message>
        <source>the server marks it read-only</source>
        <translation>服务器标记其为只读</translation>
    </message>
    <message>
        <source>it may reach beyond this computer</source>
        <translation>它可能访问本机以外的资源</translation>
    </message>
    <message>
        <source>MCP tool {tool} of the server {server}</source>
        <translation>服务器 {server} 的 MCP 工具 {tool}</translation>
    </message>
    <message>
        <source>{text} ({hints})</source>
        <translation>{text}（{hints}）</translation>
    </message>
    <message>
        <source>{path} is inside git internals or Foya&apos;s data folder</source>
        <translation>{path} 位于 git 内部目录或 Foya 的数据文件夹中</translation>
    </message>
    <message>
        <source>{path} is outside the project</source>
        <translation>{path} 位于项目之外</translation>
    </message>
    <message>
        <source>commands need approval</source>
        <translation>运行命令需要批准</translation>
    </message>
    <message>
        <source>MCP tools need approval</source>
        <translation>MCP 工具需要批准</translation>
    </message>
    <message>
        <source>the command is empty</source>
        <translation>命令为空</translation>
    </message>
    <message>
        <source>the command runs nothing Foya recognises</source>
        <translation>命令中没有 Foya 认识的程序</translation>
    </message>
    <message>
        <source>eval runs a computed command</source>
        <translation>eval 会运行一个运行时才确定的命令</translation>
    </message>
    <message>
        <source>it sets a variable</source>
        <translation>命令设置了变量</translation>
    </message>
    <message>
        <source>it sets variables for the command (NAME=value)</source>
        <translation>命令为程序设置了变量（NAME=value）</translation>
    </message>
    <message>
        <source>it expands a variable</source>
        <translation>命令展开了变量</translation>
    </message>
    <message>
        <source>it runs something in the background</source>
        <translation>命令在后台运行程序</translation>
    </message>
    <message>
        <source>it uses a here-document</source>
        <translation>命令使用了 here-document</translation>
    </message>
    <message>
        <source>it defines a function</source>
        <translation>命令定义了函数</translation>
    </message>
    <message>
        <source>{name} reaches the network</source>
        <translation>{name} 会访问网络</translation>
    </message>
    <message>
        <source>{name} runs another command</source>
        <translation>{name} 会运行另一个命令</translation>
    </message>
    <message>
        <source>{name} runs a shell</source>
        <translation>{name} 会运行一个 shell</translation>
    </message>
    <message>
        <source>it writes to {target} by redirection</source>
        <translation>命令通过重定向写入 {target}</translation>
    </message>
    <message>
        <source>git {sub} can change the repository (.git), which only you can allow</source>
        <translation>git {sub} 可能修改仓库（.git），只有你可以允许</translation>
    </message>
    <message>
        <source>(and {count} more)</source>
        <translation>（另有 {count} 条）</translation>
    </message>
    <message>
        <source>{name} is not on the read-only list</source>
        <translation>{name} 不在只读命令列表中</translation>
    </message>
    <message>
        <source>{name} with {count} operands writes a file</source>
        <translation>带 {count} 个操作数的 {name} 会写入文件</translation>
    </message>
    <message>
        <source>sed without a script</source>
        <translation>sed 没有脚本</translation>
    </message>
    <message>
        <source>git without a subcommand</source>
        <translation>git 没有子命令</translation>
    </message>
    <message>
        <source>find -L follows symbolic links</source>
        <translation>find -L 会跟随符号链接</translation>
    </message>
    <message>
        <source>git branch NAME creates a branch</source>
        <translation>git branch 名称 会创建分支</translation>
    </message>
    <message>
        <source>cd without exactly one folder</source>
        <translation>cd 没有恰好一个文件夹参数</translation>
    </message>
    <message>
        <source>cd {name} leaves the project or goes to an unknown folder</source>
        <translation>cd {name} 会离开项目或进入未知文件夹</translation>
    </message>
    <message>
        <source>pipes something downloaded from the network into an interpreter</source>
        <translation>把从网络下载的内容直接交给解释器执行</translation>
    </message>
    <message>
        <source>runs code downloaded from the network</source>
        <translation>运行从网络下载的代码</translation>
    </message>
    <message>
        <source>redirects output to {target}, outside the project or in git internals</source>
        <translation>把输出重定向到 {target}，在项目之外或在 git 内部</translation>
    </message>
    <message>
        <source>defines a function that spawns itself (fork bomb)</source>
        <translation>定义了不断自我复制的函数（fork 炸弹）</translation>
    </message>
    <message>
        <source>the file looks like it holds secrets</source>
        <translation>该文件看起来包含机密信息</translation>
    </message>
    <message>
        <source>the session is in read-only mode</source>
        <translation>会话处于只读模式</translation>
    </message>
    <message>
        <source>file changes need approval in ask mode</source>
        <translation>在询问模式下修改文件需要批准</translation>
    </message>
    <message>
        <source>the command names a file that looks like it holds secrets</source>
        <translation>命令涉及一个看起来包含机密信息的文件</translation>
    </message>
    <message>
        <source>the command uses the network</source>
        <translation>命令会使用网络</translation>
    </message>
    <message>
        <source>saving to the person&apos;s own memory (seen in every session) needs approval</source>
        <translation>保存到用户本人的记忆（所有会话可见）需要批准</translation>
    </message>
    <message>
        <source>the session is read-only: changing memory, which outlives it, needs approval</source>
        <translation>会话为只读：更改记忆（记忆比会话存在得更久）需要批准</translation>
    </message>
    <message>
        <source>the session is in plan mode: changing memory, which outlives it, needs approval</source>
        <translation>会话处于计划模式：更改记忆（记忆比会话存在得更久）需要批准</translation>
    </message>
    <message>
        <source>{reason}; its arguments name a path outside the project</source>
        <translation>{reason}；其参数指向项目之外的路径</translation>
    </message>
    <message>
        <source>{reason}; auto mode runs commands confined, but {why_not}, so Foya asks</source>
        <translation>{reason}；自动模式会在沙箱中运行命令，但 {why_not}，所以 Foya 需要询问</translation>
    </message>
    <message>
        <source>{path} is run by the trusted MCP server {servers}: changing it changes what runs on this computer, so Foya asks in every mode</source>
        <translation>{path} 由受信任的 MCP 服务器 {servers} 运行：修改它会改变在这台电脑上运行的内容，因此 Foya 在任何模式下都会询问</translation>
    </message>
    <message>
        <source>{reason}; Foya cannot confine it because {why_not}, so it asks</source>
        <translation>{reason}；由于 {why_not}，Foya 无法将其限制在沙箱中，所以需要询问</translation>
    </message>
</context>
<context>
    <name>Figures</name>
    <message>
        <source>not provided</source>
        <translation>未提供</translation>
    </message>
    <message>
        <source>Tokens are what the provider reported for this VP&apos;s model requests in this turn: input includes cached tokens, sub-agents are not included, and a provider that reports nothing shows &quot;not provided&quot;. Executions are tool calls that really ran (successful or failed); blocked calls were refused before running and count as failures, not executions. Repeated calls used the same tool and arguments as an earlier call of this turn; duplicate results repeated an earlier output. New evidence does not mean the task is done.</source>
        <translation>Token 数是服务商为此 VP 在本轮中的模型请求报告的数值：输入包含缓存的 token，不含子智能体；服务商未报告时显示“未提供”。执行次数是真正运行过的工具调用（无论成功或失败）；被拦截的调用在运行前即被拒绝，计为失败而非执行。重复调用是指与本轮中更早调用相同的工具和参数；重复结果是指与更早的输出相同。出现新证据并不代表任务已完成。</translation>
    </message>
    <message>
        <source>Debug traces may contain project text and tool output. They are for you, the owner of this session: do not export or share them casually.</source>
        <translation>调试记录可能包含项目文本和工具输出。它们仅供你（此会话的所有者）查看：请勿随意导出或分享。</translation>
    </message>
    <message>
        <source>Per-tool detail is not available for this run: it was recorded by an older Foya that did not store whether each call ran or was blocked. The totals count every call.</source>
        <translation>本次运行没有按工具的明细：它由旧版 Foya 记录，当时未保存每次调用是实际执行还是被拦截。总计仍包含全部调用。</translation>
    </message>
</context>
<context>
    <name>FindActions</name>
    <message>
        <source>Find in session…</source>
        <translation>在会话中查找…</translation>
    </message>
    <message>
        <source>Search all sessions…</source>
        <translation>搜索所有会话…</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Opening the message</source>
        <translation>打开消息</translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <source>Find in this session</source>
        <translation>在此会话中查找</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一处匹配（Shift+Enter）</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一处匹配（Enter）</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>Anyone</source>
        <translation>任何人</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>{current} of {total}</source>
        <translation>第 {current} / {total} 处</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 处匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>无匹配</translation>
    </message>
</context>
<context>
    <name>FirstRunOffers</name>
    <message>
        <source>Looking for API keys and local model servers…</source>
        <translation>正在查找 API 密钥和本地模型服务器…</translation>
    </message>
    <message>
        <source>Nothing found to set up automatically.</source>
        <translation>没有找到可自动设置的服务。</translation>
    </message>
    <message>
        <source>Foya looked for OPENAI_API_KEY, ANTHROPIC_API_KEY and other well-known key variables, and for Ollama, LM Studio, llama.cpp and vLLM on this computer.</source>
        <translation>Foya 查找了 OPENAI_API_KEY、ANTHROPIC_API_KEY 等常见密钥环境变量，以及本机上的 Ollama、LM Studio、llama.cpp 和 vLLM。</translation>
    </message>
    <message>
        <source>Found on this computer — one click creates the connection:</source>
        <translation>在此计算机上找到 — 单击即可创建连接：</translation>
    </message>
    <message>
        <source>Keys found in the environment are read from it each time; Foya stores only the variable&apos;s name.</source>
        <translation>在环境变量中找到的密钥每次都从环境中读取；Foya 只保存变量名。</translation>
    </message>
    <message>
        <source>Use {what}</source>
        <translation>使用 {what}</translation>
    </message>
</context>
<context>
    <name>FolderPicker</name>
    <message>
        <source>Type a folder path, for example ~/code/project.</source>
        <translation>输入文件夹路径，例如 ~/code/project。</translation>
    </message>
    <message>
        <source>{path} does not exist.</source>
        <translation>{path} 不存在。</translation>
    </message>
    <message>
        <source>{path} is a file, not a folder.</source>
        <translation>{path} 是文件，不是文件夹。</translation>
    </message>
    <message>
        <source>Foya is not allowed to read {path}.</source>
        <translation>Foya 无权读取 {path}。</translation>
    </message>
    <message>
        <source>{path} could not be read: {reason}.</source>
        <translation>无法读取 {path}：{reason}。</translation>
    </message>
    <message>
        <source>Choose a folder</source>
        <translation>选择文件夹</translation>
    </message>
    <message>
        <source>Use this folder</source>
        <translation>使用此文件夹</translation>
    </message>
    <message>
        <source>↑ Parent</source>
        <translation>↑ 上一级</translation>
    </message>
    <message>
        <source>Go to the folder above</source>
        <translation>转到上一级文件夹</translation>
    </message>
    <message>
        <source>Type or paste a path, then Enter</source>
        <translation>输入或粘贴路径，然后按 Enter</translation>
    </message>
    <message>
        <source>Go</source>
        <translation>前往</translation>
    </message>
    <message>
        <source>Relative paths start at {folder}. Choosing a folder moves no files and no history.</source>
        <translation>相对路径从 {folder} 开始。选择文件夹不会移动任何文件或历史。</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>This folder has no sub-folders.</source>
        <translation>此文件夹没有子文件夹。</translation>
    </message>
    <message>
        <source>{problem} Edit the path and press Enter to try again.</source>
        <translation>{problem} 请修改路径并按 Enter 重试。</translation>
    </message>
    <message>
        <source>Folders further up</source>
        <translation>更上层的文件夹</translation>
    </message>
    <message>
        <source>Go to {folder}</source>
        <translation>转到 {folder}</translation>
    </message>
    <message>
        <source>Go to the drives</source>
        <translation>转到驱动器列表</translation>
    </message>
    <message>
        <source>Press Enter or Go to load the typed path before confirming.</source>
        <translation>确认前，请按 Enter 或点击“前往”加载输入的路径。</translation>
    </message>
</context>
<context>
    <name>Gallery</name>
    <message>
        <source>Your attachment</source>
        <translation>你的附件</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图片</translation>
    </message>
</context>
<context>
    <name>HelpSheet</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
</context>
<context>
    <name>HistoryOutline</name>
    <message>
        <source>History outline</source>
        <translation>历史大纲</translation>
    </message>
    <message>
        <source>Your messages appear here; click one to jump to it.</source>
        <translation>你的消息会列在这里；点击一条即可跳转到它。</translation>
    </message>
    <message>
        <source>Loading the outline</source>
        <translation>正在加载大纲</translation>
    </message>
    <message>
        <source>(attachment)</source>
        <translation>（附件）</translation>
    </message>
    <message>
        <source>Opening the message</source>
        <translation>正在打开消息</translation>
    </message>
</context>
<context>
    <name>ImageViewer</name>
    <message>
        <source>Image — Foya</source>
        <translation>图片 — Foya</translation>
    </message>
    <message>
        <source>Previous image (←)</source>
        <translation>上一张（←）</translation>
    </message>
    <message>
        <source>Next image (→)</source>
        <translation>下一张（→）</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>This image is missing or cannot be read.</source>
        <translation>此图片缺失或无法读取。</translation>
    </message>
</context>
<context>
    <name>KeyboardActions</name>
    <message>
        <source>Stop the reply</source>
        <translation>停止回复</translation>
    </message>
    <message>
        <source>Go to session or command…</source>
        <translation>转到会话或命令…</translation>
    </message>
    <message>
        <source>Quick switcher</source>
        <translation>快速切换</translation>
    </message>
    <message>
        <source>Preferences…</source>
        <translation>偏好设置…</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>偏好设置</translation>
    </message>
    <message>
        <source>Previous session</source>
        <translation>上一个会话</translation>
    </message>
    <message>
        <source>Next session</source>
        <translation>下一个会话</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>About Foya</source>
        <translation>关于 Foya</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message>
        <source>Send the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <source>New line</source>
        <translation>换行</translation>
    </message>
    <message>
        <source>Stop the reply (the queue is kept)</source>
        <translation>停止回复（队列保留）</translation>
    </message>
    <message>
        <source>Address a VP by name</source>
        <translation>按名字指定 VP</translation>
    </message>
    <message>
        <source>Writing</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Moving around</source>
        <translation>导航</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>命令</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>Follow the system ({name})</source>
        <translation>跟随系统（{name}）</translation>
    </message>
    <message>
        <source>The window switches to the new language when you press OK.</source>
        <translation>按“确定”后窗口立即切换到新语言。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Connections…</source>
        <translation>连接…</translation>
    </message>
    <message>
        <source>VPs…</source>
        <translation>VP…</translation>
    </message>
    <message>
        <source>MCP servers…</source>
        <translation>MCP 服务器…</translation>
    </message>
    <message>
        <source>Token usage…</source>
        <translation>Token 用量…</translation>
    </message>
    <message>
        <source>Close window</source>
        <translation>关闭窗口</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Foya</source>
        <translation>Foya</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Open a folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Creating the connection</source>
        <translation>创建连接</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>VPs</source>
        <translation>VP</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Opening the session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Open a project folder</source>
        <translation>打开项目文件夹</translation>
    </message>
    <message>
        <source>Start a session here</source>
        <translation>在此开始会话</translation>
    </message>
    <message>
        <source>{title} — Foya</source>
        <translation>{title} — Foya</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message>
        <source>Looking for model services</source>
        <translation>查找模型服务</translation>
    </message>
    <message>
        <source>Connection “{name}” created.</source>
        <translation>已创建连接“{name}”。</translation>
    </message>
    <message>
        <source>Saving the session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Saving the VP</source>
        <translation>保存 VP</translation>
    </message>
    <message>
        <source>Duplicating</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Deleting the VP</source>
        <translation>删除 VP</translation>
    </message>
    <message>
        <source>Adding an agent file</source>
        <translation>正在添加智能体文件</translation>
    </message>
</context>
<context>
    <name>McpServersDialog</name>
    <message>
        <source>MCP servers — {0}</source>
        <translation>MCP 服务器 — {0}</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>User level (your own servers, from mcp.json in Foya&apos;s data folder)</source>
        <translation>用户级（你自己的服务器，来自 Foya 数据文件夹中的 mcp.json）</translation>
    </message>
    <message>
        <source>This project (.mcp.json; each server starts only once you trusted it)</source>
        <translation>本项目（.mcp.json；每个服务器只有在你信任后才会启动）</translation>
    </message>
    <message>
        <source>This session has no project folder, so no project servers.</source>
        <translation>此会话没有项目文件夹，因此没有项目服务器。</translation>
    </message>
    <message>
        <source>Select a server to see its command, source and last error.</source>
        <translation>选择一个服务器以查看它的命令、来源和最近的错误。</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>Trust…</source>
        <translation>信任…</translation>
    </message>
    <message>
        <source>Revoke trust</source>
        <translation>撤销信任</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Command or URL</source>
        <translation>命令或 URL</translation>
    </message>
    <message>
        <source>Trust</source>
        <translation>信任</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>(file)</source>
        <translation>（文件）</translation>
    </message>
    <message>
        <source>{0} project server(s) wait for your trust: {1}. Use Trust… to review exactly what would run.</source>
        <translation>{0} 个项目服务器等待你的信任：{1}。请用“信任…”查看将要运行的确切内容。</translation>
    </message>
    <message>
        <source>your own</source>
        <translation>你自己的</translation>
    </message>
    <message>
        <source>trusted</source>
        <translation>已信任</translation>
    </message>
    <message>
        <source>not trusted</source>
        <translation>未信任</translation>
    </message>
    <message>
        <source>changed since trusted</source>
        <translation>信任后已更改</translation>
    </message>
    <message>
        <source>cannot be used</source>
        <translation>无法使用</translation>
    </message>
    <message>
        <source>not started (starts when needed)</source>
        <translation>未启动（需要时启动）</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>stopped (idle)</source>
        <translation>已停止（空闲）</translation>
    </message>
    <message>
        <source>waiting for trust</source>
        <translation>等待信任</translation>
    </message>
    <message>
        <source>From: {0}</source>
        <translation>来源：{0}</translation>
    </message>
    <message>
        <source>Tools: {0}</source>
        <translation>工具：{0}</translation>
    </message>
    <message>
        <source>Warning: {0}</source>
        <translation>警告：{0}</translation>
    </message>
    <message>
        <source>Error: {0}</source>
        <translation>错误：{0}</translation>
    </message>
    <message>
        <source>Trusted {0} server(s); they start when a session of this project next needs them.</source>
        <translation>已信任 {0} 个服务器；此项目的会话下次需要时它们会启动。</translation>
    </message>
    <message>
        <source>Took back the trust of {0} server(s); they stopped.</source>
        <translation>已撤销对 {0} 个服务器的信任；它们已停止。</translation>
    </message>
    <message>
        <source>Restarting {0}…</source>
        <translation>正在重启 {0}…</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
</context>
<context>
    <name>McpTrustPrompt</name>
    <message>
        <source>Command: {0}</source>
        <translation>命令：{0}</translation>
    </message>
    <message>
        <source>URL: {0}</source>
        <translation>URL：{0}</translation>
    </message>
    <message>
        <source>Environment: {0}={1}</source>
        <translation>环境变量：{0}={1}</translation>
    </message>
    <message>
        <source>Header: {0}: {1}</source>
        <translation>请求头：{0}: {1}</translation>
    </message>
    <message>
        <source>Reads from your environment when it starts: {0}</source>
        <translation>启动时从你的环境读取：{0}</translation>
    </message>
    <message>
        <source>Uses keyring secrets: {0}</source>
        <translation>使用钥匙串中的密钥：{0}</translation>
    </message>
    <message>
        <source>Runs: {0}</source>
        <translation>运行：{0}</translation>
    </message>
    <message>
        <source>And {0} more project files beside these, not checked</source>
        <translation>另有 {0} 个项目文件未检查</translation>
    </message>
    <message>
        <source>It was trusted by an older Foya, which did not record its environment values, headers or the files it runs: review it as new.</source>
        <translation>它由旧版 Foya 信任，旧版未记录其环境变量值、请求头和它运行的文件：请像新服务器一样重新审阅。</translation>
    </message>
    <message>
        <source>type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>unchecked files</source>
        <translation>未检查的文件</translation>
    </message>
    <message>
        <source>environment {0}</source>
        <translation>环境变量 {0}</translation>
    </message>
    <message>
        <source>header {0}</source>
        <translation>请求头 {0}</translation>
    </message>
    <message>
        <source>file {0}</source>
        <translation>文件 {0}</translation>
    </message>
    <message>
        <source>{0}: added: {1}</source>
        <translation>{0}：新增：{1}</translation>
    </message>
    <message>
        <source>{0}: removed (was {1})</source>
        <translation>{0}：已移除（原为 {1}）</translation>
    </message>
    <message>
        <source>{0}: {1} → {2}</source>
        <translation>{0}：{1} → {2}</translation>
    </message>
    <message>
        <source>  (changed since you trusted it)</source>
        <translation>  （自你信任后已更改）</translation>
    </message>
    <message>
        <source>What changed:</source>
        <translation>更改内容：</translation>
    </message>
    <message>
        <source>Trust this project&apos;s MCP servers?</source>
        <translation>信任此项目的 MCP 服务器？</translation>
    </message>
    <message>
        <source>This project&apos;s .mcp.json would start these servers on your computer, with your permissions, and send them what is listed. Trust them only if you trust the repository. ${VAR} is filled in from your environment only when a server starts.</source>
        <translation>此项目的 .mcp.json 会以你的权限在你的电脑上启动这些服务器，并向它们发送列出的内容。仅当你信任该代码仓库时才信任它们。${VAR} 仅在服务器启动时才从你的环境中填入。</translation>
    </message>
    <message>
        <source>Trust</source>
        <translation>信任</translation>
    </message>
</context>
<context>
    <name>MemoryCard</name>
    <message>
        <source>your own memory (every session)</source>
        <translation>你自己的记忆（所有会话）</translation>
    </message>
    <message>
        <source>{vp}&apos;s memory (every session)</source>
        <translation>{vp} 的记忆（所有会话）</translation>
    </message>
    <message>
        <source>{vp}&apos;s memory in this session</source>
        <translation>{vp} 在本会话中的记忆</translation>
    </message>
    <message>
        <source>this session&apos;s shared memory</source>
        <translation>本会话的共享记忆</translation>
    </message>
</context>
<context>
    <name>MemoryDialog</name>
    <message>
        <source>Memory — {title}</source>
        <translation>记忆 — {title}</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>You (every session)</source>
        <translation>你（所有会话）</translation>
    </message>
    <message>
        <source>VPs (every session)</source>
        <translation>VP（所有会话）</translation>
    </message>
    <message>
        <source>VPs in this session</source>
        <translation>本会话中的 VP</translation>
    </message>
    <message>
        <source>This session (shared)</source>
        <translation>本会话（共享）</translation>
    </message>
    <message>
        <source>A fact or preference to remember…</source>
        <translation>要记住的事实或偏好…</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Add to memory</source>
        <translation>添加到记忆</translation>
    </message>
    <message>
        <source>Remove from memory</source>
        <translation>从记忆中移除</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>VP</source>
        <translation>VP</translation>
    </message>
    <message>
        <source>Written by</source>
        <translation>写入者</translation>
    </message>
    <message>
        <source>In session</source>
        <translation>所在会话</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>保存时间</translation>
    </message>
    <message>
        <source>Your lasting preferences: every VP sees them in every session. VPs may add here only with your approval.</source>
        <translation>你的长期偏好：每个 VP 在每个会话中都能看到。VP 只有经你批准才能在此添加。</translation>
    </message>
    <message>
        <source>Each VP&apos;s own knowledge: seen by that VP in every session.</source>
        <translation>每个 VP 自己的知识：该 VP 在每个会话中都能看到。</translation>
    </message>
    <message>
        <source>Each VP&apos;s knowledge in this session only; deleted with the session, never copied by fork, branch or merge.</source>
        <translation>每个 VP 仅在本会话中的知识；随会话一起删除，派生、分支或合并时都不会复制。</translation>
    </message>
    <message>
        <source>Shared facts of this collaboration: every VP of this session sees them; deleted with the session, never copied by fork, branch or merge.</source>
        <translation>本次协作的共享事实：本会话的每个 VP 都能看到；随会话一起删除，派生、分支或合并时都不会复制。</translation>
    </message>
    <message>
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <source>deleted session ({id})</source>
        <translation>已删除的会话（{id}）</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <source>Edit memory</source>
        <translation>编辑记忆</translation>
    </message>
    <message numerus="yes">
        <source>Removed %n entry(ies).</source>
        <translation>
            <numerusform>已移除 %n 个条目。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryNotice</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Remove this entry from memory again</source>
        <translation>把这个条目从记忆中移除</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Keep the entry and close this notice</source>
        <translation>保留该条目并关闭此通知</translation>
    </message>
    <message>
        <source>{who} saved to your own memory. It applies to every VP in every session of every project.</source>
        <translation>{who} 已保存到你自己的记忆中。它适用于每个项目的每个会话中的每个 VP。</translation>
    </message>
    <message>
        <source>{who} saved to {vp}&apos;s memory. It applies to {vp} in every session of every project.</source>
        <translation>{who} 已保存到 {vp} 的记忆中。它适用于每个项目的每个会话中的 {vp}。</translation>
    </message>
    <message>
        <source>Undo memory save</source>
        <translation>撤销记忆保存</translation>
    </message>
</context>
<context>
    <name>MemoryNotices</name>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
</context>
<context>
    <name>MemorySaveCard</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Remove this entry from memory again</source>
        <translation>把这个条目从记忆中移除</translation>
    </message>
    <message>
        <source>{who} saved to {where}</source>
        <translation>{who} 已保存到{where}</translation>
    </message>
    <message>
        <source>Saved. Undo removes it.</source>
        <translation>已保存。撤销会将其移除。</translation>
    </message>
    <message>
        <source>Undone: the entry was removed from memory.</source>
        <translation>已撤销：该条目已从记忆中移除。</translation>
    </message>
    <message>
        <source>No longer in memory (removed since).</source>
        <translation>已不在记忆中（之后被移除）。</translation>
    </message>
    <message>
        <source>Undo memory save</source>
        <translation>撤销记忆保存</translation>
    </message>
</context>
<context>
    <name>MergeDialog</name>
    <message>
        <source>both</source>
        <translation>两者</translation>
    </message>
    <message>
        <source>&lt;p&gt;A new session is created; &lt;b&gt;A&lt;/b&gt; “{a}” and &lt;b&gt;B&lt;/b&gt; “{b}” stay as they are. It takes A&apos;s folder, announcement, default VP, model and project, and both rosters.&lt;/p&gt;</source>
        <translation>&lt;p&gt;将创建一个新会话；&lt;b&gt;A&lt;/b&gt;“{a}”和 &lt;b&gt;B&lt;/b&gt;“{b}”保持不变。新会话沿用 A 的文件夹、公告、默认 VP、模型和项目，并合并两者的成员。&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>%n common turn(s) once, then {a} from A and {b} from B by the time you sent them:</source>
        <translation>
            <numerusform>%n 个共同轮次（只保留一份），然后按发送时间排列来自 A 的 {a} 个和来自 B 的 {b} 个轮次：</numerusform>
        </translation>
    </message>
    <message>
        <source>No common turns: {a} from A and {b} from B by the time you sent them:</source>
        <translation>没有共同的轮次：按发送时间排列，A 的 {a} 轮和 B 的 {b} 轮：</translation>
    </message>
    <message>
        <source>(Both sessions are empty.)</source>
        <translation>（两个会话都是空的。）</translation>
    </message>
    <message>
        <source>Merge sessions</source>
        <translation>合并会话</translation>
    </message>
    <message>
        <source>Merge “{a}” with “{b}”?</source>
        <translation>将“{a}”与“{b}”合并？</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
</context>
<context>
    <name>MessageActions</name>
    <message>
        <source>Quote in reply</source>
        <translation>在回复中引用</translation>
    </message>
    <message>
        <source>Edit as new message</source>
        <translation>编辑为新消息</translation>
    </message>
    <message>
        <source>Edit as new</source>
        <translation>编辑为新消息</translation>
    </message>
</context>
<context>
    <name>NewSessionDialog</name>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>What is this session about? (optional)</source>
        <translation>这个会话要做什么？（可选）</translation>
    </message>
    <message>
        <source>No folder — the session goes to Recents</source>
        <translation>不选文件夹 — 会话将放在“最近”中</translation>
    </message>
    <message>
        <source>Choose a project…</source>
        <translation>选择项目…</translation>
    </message>
    <message>
        <source>In a new git worktree (a folder and branch of its own)</source>
        <translation>在新的 git 工作树中（有自己的文件夹和分支）</translation>
    </message>
    <message>
        <source>New branch named after the session</source>
        <translation>以会话命名的新分支</translation>
    </message>
    <message>
        <source>Create session</source>
        <translation>创建会话</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>A session with a folder stays bound to that project.</source>
        <translation>选择了文件夹的会话会一直绑定到该项目。</translation>
    </message>
    <message>
        <source>VPs</source>
        <translation>VP</translation>
    </message>
    <message>
        <source>Answers by default</source>
        <translation>默认回答者</translation>
    </message>
    <message>
        <source>Model service</source>
        <translation>模型服务</translation>
    </message>
    <message>
        <source>None yet — add one under Connections…</source>
        <translation>暂无 — 请在“连接…”中添加</translation>
    </message>
    <message>
        <source>Choose the project folder</source>
        <translation>选择项目文件夹</translation>
    </message>
    <message>
        <source>The folder cannot be used: {reason}.</source>
        <translation>无法使用该文件夹：{reason}。</translation>
    </message>
</context>
<context>
    <name>Node</name>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message>
        <source>Recents</source>
        <translation>最近</translation>
    </message>
</context>
<context>
    <name>OutlineActions</name>
    <message>
        <source>Show or hide the list of your messages beside the timeline</source>
        <translation>在时间线旁显示或隐藏你的消息列表</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Outline</source>
        <translation>大纲</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>偏好设置</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>A reply finished</source>
        <translation>回复完成时</translation>
    </message>
    <message>
        <source>A reply failed</source>
        <translation>回复失败时</translation>
    </message>
    <message>
        <source>An approval or a question waits for you</source>
        <translation>有审批或问题等待你处理时</translation>
    </message>
    <message>
        <source>The first one configured</source>
        <translation>第一个已配置的服务</translation>
    </message>
    <message>
        <source>The service&apos;s own default model</source>
        <translation>服务自身的默认模型</translation>
    </message>
    <message>
        <source>Ask before acting (default)</source>
        <translation>操作前询问（默认）</translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter adds a line</source>
        <translation>Enter 发送，Shift+Enter 换行</translation>
    </message>
    <message>
        <source>Ctrl+Enter sends, Enter adds a line</source>
        <translation>Ctrl+Enter 发送，Enter 换行</translation>
    </message>
    <message>
        <source>(not stored: a test window)</source>
        <translation>（未保存：测试窗口）</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Appearance and language</source>
        <translation>外观与语言</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Notify me when</source>
        <translation>在以下情况通知我</translation>
    </message>
    <message>
        <source>Only for sessions not on screen; at most one per reply.</source>
        <translation>仅针对不在屏幕上的会话；每次回复最多一条。</translation>
    </message>
    <message>
        <source>New sessions</source>
        <translation>新会话</translation>
    </message>
    <message>
        <source>Model service</source>
        <translation>模型服务</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Approval mode</source>
        <translation>审批模式</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <source>{name} (not configured)</source>
        <translation>{name}（未配置）</translation>
    </message>
</context>
<context>
    <name>PreferencesState</name>
    <message>
        <source>Preferences could not be saved ({reason}).</source>
        <translation>无法保存偏好设置（{reason}）。</translation>
    </message>
</context>
<context>
    <name>PriceDialog</name>
    <message>
        <source>Price of {model}</source>
        <translation>{model} 的价格</translation>
    </message>
    <message>
        <source>for example 3.00</source>
        <translation>例如 3.00</translation>
    </message>
    <message>
        <source>for example 15.00</source>
        <translation>例如 15.00</translation>
    </message>
    <message>
        <source>same as input</source>
        <translation>与输入相同</translation>
    </message>
    <message>
        <source>Connection / model</source>
        <translation>连接 / 模型</translation>
    </message>
    <message>
        <source>Input, USD per million tokens</source>
        <translation>输入，美元 / 百万 token</translation>
    </message>
    <message>
        <source>Output, USD per million tokens</source>
        <translation>输出，美元 / 百万 token</translation>
    </message>
    <message>
        <source>Cache read (optional)</source>
        <translation>缓存读取（可选）</translation>
    </message>
    <message>
        <source>Cache write (optional)</source>
        <translation>缓存写入（可选）</translation>
    </message>
    <message>
        <source>{what}: “{text}” is not a number of dollars.</source>
        <translation>{what}：“{text}”不是有效的美元金额。</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Cache read</source>
        <translation>缓存读取</translation>
    </message>
    <message>
        <source>Cache write</source>
        <translation>缓存写入</translation>
    </message>
</context>
<context>
    <name>ProjectActions</name>
    <message>
        <source>New project…</source>
        <translation>新建项目…</translation>
    </message>
    <message>
        <source>Bind to a folder…</source>
        <translation>绑定到文件夹…</translation>
    </message>
    <message>
        <source>Rename project…</source>
        <translation>重命名项目…</translation>
    </message>
    <message>
        <source>Project instruction…</source>
        <translation>项目指令…</translation>
    </message>
    <message>
        <source>Relink to the moved folder…</source>
        <translation>重新关联到移动后的文件夹…</translation>
    </message>
    <message>
        <source>Scoped recall of sibling sessions</source>
        <translation>召回同项目的兄弟会话</translation>
    </message>
    <message>
        <source>Delete project…</source>
        <translation>删除项目…</translation>
    </message>
    <message>
        <source>New project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <source>Moving</source>
        <translation>移动</translation>
    </message>
    <message>
        <source>Reordering</source>
        <translation>重新排序</translation>
    </message>
    <message>
        <source>Checking project folders</source>
        <translation>检查项目文件夹</translation>
    </message>
    <message>
        <source>New project — choose its folder</source>
        <translation>新建项目 — 选择其文件夹</translation>
    </message>
    <message>
        <source>Create project</source>
        <translation>创建项目</translation>
    </message>
    <message>
        <source>Cannot create the project</source>
        <translation>无法创建项目</translation>
    </message>
    <message>
        <source>Project “{name}” added — {path}</source>
        <translation>已添加项目“{name}” — {path}</translation>
    </message>
    <message>
        <source>Bind the session to a folder</source>
        <translation>将会话绑定到文件夹</translation>
    </message>
    <message>
        <source>Use this folder</source>
        <translation>使用此文件夹</translation>
    </message>
    <message>
        <source>Bind</source>
        <translation>绑定</translation>
    </message>
    <message>
        <source>Cannot use this folder</source>
        <translation>无法使用此文件夹</translation>
    </message>
    <message>
        <source>Move session</source>
        <translation>移动会话</translation>
    </message>
    <message>
        <source>This session cannot move</source>
        <translation>此会话无法移动</translation>
    </message>
    <message>
        <source>A session bound to a project stays in it (and a sub-agent session follows its parent). Branch it to continue in another place.</source>
        <translation>已绑定到项目的会话会一直留在该项目中（子智能体会话跟随其父会话）。如需在别处继续，请对它创建分支。</translation>
    </message>
    <message>
        <source>Bind session</source>
        <translation>绑定会话</translation>
    </message>
    <message>
        <source>Bind “{title}” to {project}?</source>
        <translation>将“{title}”绑定到 {project}？</translation>
    </message>
    <message>
        <source>&lt;p&gt;From now on its tools work in &lt;b&gt;{path}&lt;/b&gt; and it uses the project&apos;s instruction.&lt;/p&gt;&lt;p&gt;&lt;b&gt;This cannot be undone&lt;/b&gt;: a bound session stays in its project. No files are moved.&lt;/p&gt;</source>
        <translation>&lt;p&gt;从现在起，它的工具在 &lt;b&gt;{path}&lt;/b&gt; 中工作，并使用该项目的指令。&lt;/p&gt;&lt;p&gt;&lt;b&gt;此操作无法撤销&lt;/b&gt;：已绑定的会话会一直留在其项目中。不会移动任何文件。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Cannot bind the session</source>
        <translation>无法绑定会话</translation>
    </message>
    <message>
        <source>Rename project</source>
        <translation>重命名项目</translation>
    </message>
    <message>
        <source>A name for the project in {path}. The folder itself is not renamed.</source>
        <translation>为 {path} 中的项目起个名字。文件夹本身不会被重命名。</translation>
    </message>
    <message>
        <source>Project instruction — {name}</source>
        <translation>项目指令 — {name}</translation>
    </message>
    <message>
        <source>Every session in this project gets this instruction (from its next reply on). Leave it empty for none.</source>
        <translation>此项目中的每个会话都会收到这条指令（从下一次回复起）。留空表示不使用。</translation>
    </message>
    <message>
        <source>Project instruction</source>
        <translation>项目指令</translation>
    </message>
    <message>
        <source>Where is {name} now? (was {path})</source>
        <translation>{name} 现在在哪里？（原位置 {path}）</translation>
    </message>
    <message>
        <source>Relink here</source>
        <translation>重新关联到此处</translation>
    </message>
    <message>
        <source>Relink project</source>
        <translation>重新关联项目</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;The folder &lt;b&gt;{folder}&lt;/b&gt; and its files are &lt;b&gt;not touched&lt;/b&gt;. Foya forgets the project: its instruction and “always allow” rules, and %n session(s) with their history:&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;文件夹 &lt;b&gt;{folder}&lt;/b&gt; 及其中的文件&lt;b&gt;不受影响&lt;/b&gt;。Foya 会忘记该项目：包括它的指令、“始终允许”规则，以及 %n 个会话及其历史：&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;The folder &lt;b&gt;{folder}&lt;/b&gt; and its files are &lt;b&gt;not touched&lt;/b&gt;. Foya forgets the project: its instruction and “always allow” rules.&lt;/p&gt;</source>
        <translation>&lt;p&gt;文件夹 &lt;b&gt;{folder}&lt;/b&gt; 及其中的文件&lt;b&gt;不受影响&lt;/b&gt;。Foya 会忘记该项目：包括它的指令和“始终允许”规则。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;This cannot be undone.&lt;/p&gt;</source>
        <translation>&lt;p&gt;此操作无法撤销。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Delete project</source>
        <translation>删除项目</translation>
    </message>
    <message>
        <source>Delete the project “{name}”?</source>
        <translation>删除项目“{name}”？</translation>
    </message>
    <message>
        <source>Cannot delete the project</source>
        <translation>无法删除项目</translation>
    </message>
    <message>
        <source>Project “{name}” deleted; {path} is untouched.</source>
        <translation>已删除项目“{name}”；{path} 未受影响。</translation>
    </message>
    <message>
        <source>Recents</source>
        <translation>最近</translation>
    </message>
    <message>
        <source>that project</source>
        <translation>该项目</translation>
    </message>
    <message>
        <source>“{title}” cannot move to {where}</source>
        <translation>“{title}”无法移动到 {where}</translation>
    </message>
    <message>
        <source>&lt;p&gt;A session bound to a project stays in it, so its history and its tools keep working in the same folder.&lt;/p&gt;&lt;p&gt;To continue this conversation elsewhere, branch it from its latest reply; the branch gets the same history and the original stays as it is.&lt;/p&gt;</source>
        <translation>&lt;p&gt;已绑定到项目的会话会一直留在该项目中，这样它的历史和工具始终在同一个文件夹中工作。&lt;/p&gt;&lt;p&gt;如需在别处继续此对话，请从其最新回复分支；分支会获得相同的历史，原会话保持不变。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Branch it</source>
        <translation>创建分支</translation>
    </message>
    <message>
        <source>{what} failed</source>
        <translation>{what}失败</translation>
    </message>
    <message>
        <source>Sessions of this project see read-only summaries (title, id and a short summary) of their sibling sessions — never their transcripts.</source>
        <translation>此项目的会话会看到兄弟会话的只读摘要（标题、ID 和简短摘要）——绝不包含其完整记录。</translation>
    </message>
    <message>
        <source>Relink to another folder…</source>
        <translation>重新关联到其他文件夹…</translation>
    </message>
    <message>
        <source>Binding</source>
        <translation>绑定</translation>
    </message>
</context>
<context>
    <name>QuestionBook</name>
    <message>
        <source>Answering the question</source>
        <translation>回答问题</translation>
    </message>
    <message>
        <source>This question is no longer open.</source>
        <translation>此问题已不再开放。</translation>
    </message>
</context>
<context>
    <name>QuestionCard</name>
    <message>
        <source>Type your answer</source>
        <translation>输入你的回答</translation>
    </message>
    <message>
        <source>Send answer</source>
        <translation>发送回答</translation>
    </message>
    <message>
        <source>Resend answer</source>
        <translation>重新发送回答</translation>
    </message>
    <message>
        <source>Sends the same answer for the same question again; it can never be answered twice.</source>
        <translation>为同一问题再次发送相同的回答；同一问题永远不会被回答两次。</translation>
    </message>
    <message>
        <source>{who} asks</source>
        <translation>{who} 提问</translation>
    </message>
</context>
<context>
    <name>QuestionView</name>
    <message>
        <source>Ask {who} to ask again if it still needs the answer.</source>
        <translation>如果仍需要答案，请让 {who} 重新提问。</translation>
    </message>
    <message>
        <source>the VP</source>
        <translation>该 VP</translation>
    </message>
    <message>
        <source>Not answered.</source>
        <translation>未回答。</translation>
    </message>
    <message>
        <source>You answered: {answer}</source>
        <translation>你的回答：{answer}</translation>
    </message>
    <message>
        <source>Opening the question…</source>
        <translation>正在打开问题…</translation>
    </message>
    <message>
        <source>This question is no longer open (the turn ended or the app restarted).</source>
        <translation>此问题已不再开放（本轮已结束或应用已重启）。</translation>
    </message>
    <message>
        <source>Sent “{answer}” — waiting for the agent to confirm…</source>
        <translation>已发送“{answer}” — 等待智能体确认…</translation>
    </message>
    <message>
        <source>No confirmation for “{answer}” yet. Check the connection and resend — it is the same question, so it can never be answered twice.</source>
        <translation>“{answer}”尚未得到确认。请检查连接后重新发送 — 这是同一个问题，永远不会被回答两次。</translation>
    </message>
    <message>
        <source>Could not deliver “{answer}”: {reason} Resend when the agent is available.</source>
        <translation>无法送达“{answer}”：{reason} 请在智能体可用时重新发送。</translation>
    </message>
    <message>
        <source>(question not recorded)</source>
        <translation>（问题未被记录）</translation>
    </message>
</context>
<context>
    <name>Questions</name>
    <message>
        <source>The question expired before an answer was accepted.</source>
        <translation>问题在回答被接受之前已过期。</translation>
    </message>
    <message>
        <source>The turn was stopped before an answer was accepted.</source>
        <translation>本轮在回答被接受之前已停止。</translation>
    </message>
    <message>
        <source>The app restarted while the question was open, so the waiting request is gone.</source>
        <translation>问题开放期间应用已重启，等待中的请求已丢失。</translation>
    </message>
</context>
<context>
    <name>QueueWidget</name>
    <message>
        <source>Resume queue</source>
        <translation>恢复队列</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Remove from queue</source>
        <translation>从队列中移除</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>立即发送</translation>
    </message>
    <message>
        <source>Stop the current reply and send this next</source>
        <translation>停止当前回复，接着发送这条</translation>
    </message>
    <message numerus="yes">
        <source>Queued (%n)</source>
        <translation>
            <numerusform>队列（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source> — paused after stop</source>
        <translation> — 停止后已暂停</translation>
    </message>
</context>
<context>
    <name>QuickSwitcher</name>
    <message>
        <source>Go to a session or command</source>
        <translation>转到会话或命令</translation>
    </message>
    <message>
        <source>Type to find a session or a command…</source>
        <translation>输入以查找会话或命令…</translation>
    </message>
    <message>
        <source>↑↓ to move · Enter to open · Esc to close</source>
        <translation>↑↓ 移动 · Enter 打开 · Esc 关闭</translation>
    </message>
</context>
<context>
    <name>QuitController</name>
    <message>
        <source>Foya</source>
        <translation>Foya</translation>
    </message>
    <message>
        <source>Show Foya</source>
        <translation>显示 Foya</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Quit now (stop running turns)</source>
        <translation>立即退出（停止运行中的轮次）</translation>
    </message>
    <message>
        <source>Closing the window</source>
        <translation>关闭窗口</translation>
    </message>
    <message>
        <source>Foya is still running</source>
        <translation>Foya 仍在运行</translation>
    </message>
    <message>
        <source>Replies continue in the background. Click this icon to bring the window back; use Quit from its menu to exit.</source>
        <translation>回复会在后台继续。点击此图标可恢复窗口；要退出，请使用其菜单中的“退出”。</translation>
    </message>
    <message>
        <source>Quit when finished</source>
        <translation>完成后退出</translation>
    </message>
    <message numerus="yes">
        <source>Finishing running sessions before quitting (%n left)…</source>
        <translation>
            <numerusform>正在完成运行中的会话，然后退出（还剩 %n 个）…</numerusform>
        </translation>
    </message>
    <message>
        <source>Quitting</source>
        <translation>退出</translation>
    </message>
    <message numerus="yes">
        <source>There is no system tray here, so closing the window quits Foya.

Sessions still running: %n. Foya quits as soon as they have finished and their replies are stored; the window stays open until then.</source>
        <translation>
            <numerusform>这里没有系统托盘，所以关闭窗口会退出 Foya。

仍在运行的会话：%n 个。它们完成并保存回复后 Foya 就会退出；在此之前窗口保持打开。</numerusform>
        </translation>
    </message>
    <message>
        <source>Keep the window open</source>
        <translation>保持窗口打开</translation>
    </message>
    <message>
        <source>Stopping turns</source>
        <translation>停止轮次</translation>
    </message>
</context>
<context>
    <name>ReplyActions</name>
    <message>
        <source>Sending again</source>
        <translation>正在重新发送</translation>
    </message>
    <message>
        <source>↻ Retry</source>
        <translation>↻ 重试</translation>
    </message>
    <message>
        <source>→ Continue</source>
        <translation>→ 继续</translation>
    </message>
</context>
<context>
    <name>RewindDialog</name>
    <message>
        <source>Something changed since this preview (new messages, or files edited in the meantime). The preview below is fresh — check it and confirm again.</source>
        <translation>预览之后发生了变化（有新消息，或文件在此期间被编辑）。下方是最新的预览 — 请检查后再次确认。</translation>
    </message>
    <message>
        <source>Rewind history</source>
        <translation>回退历史</translation>
    </message>
    <message>
        <source>Rewind the conversation to this message?</source>
        <translation>将对话回退到这条消息？</translation>
    </message>
    <message>
        <source>Rewind</source>
        <translation>回退</translation>
    </message>
    <message>
        <source>Rewinding…</source>
        <translation>正在回退…</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n message(s)&lt;/b&gt; — this one and everything after it — leave the timeline. Your message goes back into the composer so you can edit and resend it.</source>
        <translation>
            <numerusform>&lt;b&gt;%n 条消息&lt;/b&gt;（这条及其之后的全部消息）将离开时间线。你的消息会放回输入框，方便你编辑后重新发送。</numerusform>
        </translation>
    </message>
    <message>
        <source>Restored to how they were before ({count})</source>
        <translation>恢复为之前的状态（{count}）</translation>
    </message>
    <message>
        <source>Created after this message — deleted ({count})</source>
        <translation>在这条消息之后创建 — 将删除（{count}）</translation>
    </message>
    <message>
        <source>Not touched — cannot be restored safely ({count})</source>
        <translation>不作改动 — 无法安全恢复（{count}）</translation>
    </message>
    <message>
        <source>No files were changed by tools after this message.</source>
        <translation>这条消息之后，工具没有更改任何文件。</translation>
    </message>
    <message>
        <source>The history moved and this message can no longer be rewound to: {reason}</source>
        <translation>历史已发生变化，无法再回退到这条消息：{reason}</translation>
    </message>
</context>
<context>
    <name>RosterDialog</name>
    <message>
        <source>Roster and default VP</source>
        <translation>成员与默认 VP</translation>
    </message>
    <message>
        <source>Who works in “{title}”:</source>
        <translation>参与“{title}”的成员：</translation>
    </message>
    <message>
        <source>Answers messages without @mentions</source>
        <translation>回答未 @提及 的消息</translation>
    </message>
</context>
<context>
    <name>RowRenderer</name>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Thinking… {text}</source>
        <translation>思考中… {text}</translation>
    </message>
    <message numerus="yes">
        <source>Thought · %n word(s)</source>
        <translation>
            <numerusform>思考 · %n 词</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>preparing a tool call… %n character(s)</source>
        <translation>
            <numerusform>正在准备工具调用… %n 个字符</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchWindow</name>
    <message>
        <source>Any time</source>
        <translation>任意时间</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <source>Last year</source>
        <translation>最近一年</translation>
    </message>
    <message>
        <source>Search all sessions</source>
        <translation>搜索所有会话</translation>
    </message>
    <message>
        <source>Search every session — words, code identifiers, 中文…</source>
        <translation>搜索所有会话 — 单词、代码标识符、中文…</translation>
    </message>
    <message>
        <source>Type to search.</source>
        <translation>输入内容开始搜索。</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Speaker</source>
        <translation>发言者</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>所有项目</translation>
    </message>
    <message>
        <source>Anyone</source>
        <translation>任何人</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>搜索中…</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source> (the newest 200)</source>
        <translation>（最新的 200 条）</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <source>{ms} ms</source>
        <translation>{ms} 毫秒</translation>
    </message>
    <message>
        <source>No messages match.</source>
        <translation>没有匹配的消息。</translation>
    </message>
</context>
<context>
    <name>SelectableText</name>
    <message>
        <source>Select text and press Ctrl+C to copy; Esc closes</source>
        <translation>选中文字后按 Ctrl+C 复制；按 Esc 关闭</translation>
    </message>
</context>
<context>
    <name>SessionActions</name>
    <message>
        <source>Branch from here</source>
        <translation>从此处分支</translation>
    </message>
    <message>
        <source>Rewind to here…</source>
        <translation>回退到此处…</translation>
    </message>
    <message>
        <source>Branch from latest reply</source>
        <translation>从最新回复分支</translation>
    </message>
    <message>
        <source>Merge with…</source>
        <translation>合并到…</translation>
    </message>
    <message>
        <source>Roster and default VP…</source>
        <translation>成员与默认 VP…</translation>
    </message>
    <message>
        <source>Fork session</source>
        <translation>派生会话</translation>
    </message>
    <message>
        <source>Fork from this turn</source>
        <translation>从本轮派生</translation>
    </message>
    <message>
        <source>Compact now</source>
        <translation>立即压缩</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Show the summary…</source>
        <translation>查看摘要…</translation>
    </message>
    <message>
        <source>Memory…</source>
        <translation>记忆…</translation>
    </message>
    <message>
        <source>Delete session…</source>
        <translation>删除会话…</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>会话(&amp;S)</translation>
    </message>
    <message>
        <source>Fork</source>
        <translation>派生</translation>
    </message>
    <message>
        <source>Fork this session: a copy with the same history and settings opens; this one goes on unchanged (also while it is replying).</source>
        <translation>派生此会话：打开一个具有相同历史和设置的副本；当前会话保持不变继续进行（回复进行中也可以）。</translation>
    </message>
    <message>
        <source>Branching</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>Forking</source>
        <translation>派生</translation>
    </message>
    <message>
        <source>Showing the summary</source>
        <translation>查看摘要</translation>
    </message>
    <message>
        <source>Rewinding</source>
        <translation>回退</translation>
    </message>
    <message>
        <source>{action}  (a fork is being made)</source>
        <translation>{action}  （正在派生）</translation>
    </message>
    <message>
        <source>Roster</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>Compacting</source>
        <translation>压缩</translation>
    </message>
    <message>
        <source>{action}  (wait for the reply to finish)</source>
        <translation>{action}  （请等待回复完成）</translation>
    </message>
    <message>
        <source>Deleting</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>No other session</source>
        <translation>没有其他会话</translation>
    </message>
    <message>
        <source>Merging</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>No session open</source>
        <translation>没有打开的会话</translation>
    </message>
    <message>
        <source>Loading compaction markers</source>
        <translation>加载压缩标记</translation>
    </message>
</context>
<context>
    <name>SessionDelegate</name>
    <message>
        <source>folder missing</source>
        <translation>文件夹缺失</translation>
    </message>
</context>
<context>
    <name>SessionFlows</name>
    <message>
        <source>Branch</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>Cannot branch here</source>
        <translation>无法在此处分支</translation>
    </message>
    <message>
        <source>Branched into “{title}” — the original session is unchanged.</source>
        <translation>已分支为“{title}” — 原会话保持不变。</translation>
    </message>
    <message>
        <source>Fork</source>
        <translation>派生</translation>
    </message>
    <message>
        <source>Cannot fork here</source>
        <translation>无法在此处派生</translation>
    </message>
    <message>
        <source>Forked into “{title}” — the original session goes on unchanged.</source>
        <translation>已派生为“{title}” — 原会话保持不变继续进行。</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Cannot merge these sessions</source>
        <translation>无法合并这些会话</translation>
    </message>
    <message>
        <source>Merged into “{title}” — both sessions are unchanged.</source>
        <translation>已合并为“{title}” — 两个原会话均保持不变。</translation>
    </message>
    <message>
        <source>Roster</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>Cannot change the roster</source>
        <translation>无法更改成员</translation>
    </message>
    <message>
        <source>Roster saved: it applies from the next message.</source>
        <translation>成员已保存：从下一条消息起生效。</translation>
    </message>
    <message>
        <source>Nothing to branch from yet</source>
        <translation>暂时没有可分支的位置</translation>
    </message>
    <message>
        <source>A branch starts from a complete reply, and this session has none yet.</source>
        <translation>分支需从一条完整的回复开始，而此会话还没有。</translation>
    </message>
    <message>
        <source>Rewind</source>
        <translation>回退</translation>
    </message>
    <message>
        <source>Cannot rewind to this message</source>
        <translation>无法回退到这条消息</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message>
        <source>Delete session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <source>Delete “{title}”?</source>
        <translation>删除“{title}”？</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message numerus="yes">
        <source>Deleted “{title}” and %n sub-agent session(s).</source>
        <translation>
            <numerusform>已删除“{title}”及 %n 个子智能体会话。</numerusform>
        </translation>
    </message>
    <message>
        <source>Deleted “{title}”.</source>
        <translation>已删除“{title}”。</translation>
    </message>
    <message>
        <source>Cannot delete</source>
        <translation>无法删除</translation>
    </message>
    <message>
        <source>Compacting… a summary of the history is being written.</source>
        <translation>正在压缩… 正在撰写历史摘要。</translation>
    </message>
    <message>
        <source>Compacted: later requests start from the summary; the timeline keeps everything.</source>
        <translation>已压缩：之后的请求将从摘要开始；时间线保留全部内容。</translation>
    </message>
    <message>
        <source>automatically, when the context filled up</source>
        <translation>在上下文已满时自动</translation>
    </message>
    <message>
        <source>on request</source>
        <translation>应你的要求</translation>
    </message>
    <message>
        <source>Compaction summary</source>
        <translation>压缩摘要</translation>
    </message>
    <message>
        <source>Summary written {how}</source>
        <translation>摘要已{how}写入</translation>
    </message>
    <message>
        <source>(empty summary)</source>
        <translation>（摘要为空）</translation>
    </message>
    <message>
        <source>This cannot be undone. The session&apos;s messages, settings and attachments are removed from Foya; files in the project folder are not touched.</source>
        <translation>此操作无法撤销。会话的消息、设置和附件将从 Foya 中删除；项目文件夹中的文件不受影响。</translation>
    </message>
    <message>
        <source>Untitled sub-agent session</source>
        <translation>未命名的子智能体会话</translation>
    </message>
    <message numerus="yes">
        <source>Its %n sub-agent session(s) go too:</source>
        <translation>
            <numerusform>其 %n 个子智能体会话也会一并删除：</numerusform>
        </translation>
    </message>
    <message>
        <source>The reply in progress is stopped first.</source>
        <translation>进行中的回复会先被停止。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) restored</source>
        <translation>
            <numerusform>恢复了 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation>
            <numerusform>删除了 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n left untouched</source>
        <translation>
            <numerusform>%n 个未改动</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message numerus="yes">
        <source>Rewound: %n message(s) left the timeline.</source>
        <translation>
            <numerusform>已回退：%n 条消息离开了时间线。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rewound: %n message(s) left the timeline; {detail}.</source>
        <translation>
            <numerusform>已回退：%n 条消息离开了时间线；{detail}。</numerusform>
        </translation>
    </message>
    <message>
        <source>Your message is back in the composer.</source>
        <translation>你的消息已放回输入框。</translation>
    </message>
</context>
<context>
    <name>SessionPane</name>
    <message>
        <source>Start the conversation.

@mention a VP to address it · Enter sends · Shift+Enter adds a line · messages sent while a reply runs wait in the queue</source>
        <translation>开始对话吧。

@提及 VP 即可指定对象 · Enter 发送 · Shift+Enter 换行 · 回复进行中发送的消息会在队列中等待</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Title, announcement, VPs, model, effort, approval and agent mode</source>
        <translation>标题、公告、VP、模型、推理强度、审批和智能体模式</translation>
    </message>
    <message>
        <source>Showing the call</source>
        <translation>正在显示该调用</translation>
    </message>
    <message>
        <source>Confirming the plan</source>
        <translation>确认计划</translation>
    </message>
    <message>
        <source>Back to planning</source>
        <translation>返回计划</translation>
    </message>
    <message>
        <source>Loading the turn&apos;s figures</source>
        <translation>正在读取本轮统计</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message>
        <source>No folder (Recents)</source>
        <translation>无文件夹（最近）</translation>
    </message>
    <message>
        <source>VPs: {names}</source>
        <translation>VP：{names}</translation>
    </message>
    <message>
        <source>The turn failed.</source>
        <translation>本轮失败。</translation>
    </message>
    <message>
        <source>Sending the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Interrupting</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Opening token usage</source>
        <translation>打开 token 用量</translation>
    </message>
    <message>
        <source>Opening session settings</source>
        <translation>打开会话设置</translation>
    </message>
    <message>
        <source>Loading debug traces</source>
        <translation>加载调试记录</translation>
    </message>
    <message>
        <source>Saving the setting</source>
        <translation>保存设置</translation>
    </message>
    <message>
        <source>Loading older messages</source>
        <translation>加载更早的消息</translation>
    </message>
    <message>
        <source>Showing that part of the session</source>
        <translation>显示会话的这一部分</translation>
    </message>
    <message>
        <source>Loading the newest messages</source>
        <translation>加载最新消息</translation>
    </message>
    <message>
        <source>Attaching files</source>
        <translation>附加文件</translation>
    </message>
</context>
<context>
    <name>SessionSettingsDialog</name>
    <message>
        <source>Execute</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>Plan (read and discuss only)</source>
        <translation>计划（仅阅读和讨论）</translation>
    </message>
    <message>
        <source>Plan awaiting confirmation</source>
        <translation>计划待确认</translation>
    </message>
    <message>
        <source>Session settings</source>
        <translation>会话设置</translation>
    </message>
    <message>
        <source>Shown to every VP in this session</source>
        <translation>展示给此会话中的每个 VP</translation>
    </message>
    <message>
        <source>First configured</source>
        <translation>第一个已配置的</translation>
    </message>
    <message>
        <source>The connection&apos;s default model</source>
        <translation>该连接的默认模型</translation>
    </message>
    <message>
        <source>Bind to a folder…</source>
        <translation>绑定到文件夹…</translation>
    </message>
    <message>
        <source>Choose the folder this session works in. Binding is for good: a bound session stays in its project.</source>
        <translation>选择此会话工作的文件夹。绑定不可撤销：已绑定的会话会一直留在其项目中。</translation>
    </message>
    <message>
        <source>A bound session keeps its folder; fork it to work elsewhere.</source>
        <translation>已绑定的会话会保留其文件夹；如需在别处工作，请派生它。</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Announcement</source>
        <translation>公告</translation>
    </message>
    <message>
        <source>VPs</source>
        <translation>VP</translation>
    </message>
    <message>
        <source>Default VP</source>
        <translation>默认 VP</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Reasoning effort</source>
        <translation>推理强度</translation>
    </message>
    <message>
        <source>Approval mode</source>
        <translation>审批模式</translation>
    </message>
    <message>
        <source>Agent mode</source>
        <translation>智能体模式</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Rules in effect</source>
        <translation>生效的规则</translation>
    </message>
    <message>
        <source>None (no AGENTS.md or CLAUDE.md in the folder or the data folder)</source>
        <translation>无（文件夹和数据文件夹中都没有 AGENTS.md 或 CLAUDE.md）</translation>
    </message>
    <message>
        <source>{path} (only {sent} of {total} characters sent)</source>
        <translation>{path}（{total} 个字符中只发送了 {sent} 个）</translation>
    </message>
    <message>
        <source>Truncated to the rules budget of {budget} characters.</source>
        <translation>已按 {budget} 个字符的规则预算截断。</translation>
    </message>
    <message>
        <source>Re-read before every request: edit the files and the next request uses them.</source>
        <translation>每次请求前都会重新读取：编辑这些文件后，下一次请求就会使用新内容。</translation>
    </message>
    <message>
        <source>Not used (nothing of these is sent):</source>
        <translation>未使用（其中任何内容都不会发送）：</translation>
    </message>
    <message>
        <source>Not bound (Recents)</source>
        <translation>未绑定（最近）</translation>
    </message>
    <message>
        <source>Saving session settings</source>
        <translation>保存会话设置</translation>
    </message>
    <message>
        <source>Binding the session</source>
        <translation>正在绑定会话</translation>
    </message>
</context>
<context>
    <name>SessionTransfer</name>
    <message>
        <source>Import session…</source>
        <translation>导入会话…</translation>
    </message>
    <message>
        <source>Export session as Markdown…</source>
        <translation>将会话导出为 Markdown…</translation>
    </message>
    <message>
        <source>Export session as JSON…</source>
        <translation>将会话导出为 JSON…</translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation>导出为 Markdown…</translation>
    </message>
    <message>
        <source>Export as JSON…</source>
        <translation>导出为 JSON…</translation>
    </message>
    <message>
        <source>Exporting</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Importing</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Export session</source>
        <translation>导出会话</translation>
    </message>
    <message>
        <source>Export “{title}” as {what}?</source>
        <translation>将“{title}”导出为 {what}？</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Exported “{title}” to {path}</source>
        <translation>已将“{title}”导出到 {path}</translation>
    </message>
    <message>
        <source>Import session</source>
        <translation>导入会话</translation>
    </message>
    <message>
        <source>Foya session export (*.json)</source>
        <translation>Foya 会话导出文件 (*.json)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Imported “{title}” into {folder}.</source>
        <translation>已导入“{title}”，绑定到 {folder}。</translation>
    </message>
    <message>
        <source>Imported “{title}” without a folder.</source>
        <translation>已导入“{title}”，未绑定文件夹。</translation>
    </message>
    <message>
        <source>Import session — choose its folder</source>
        <translation>导入会话 — 选择它的文件夹</translation>
    </message>
    <message>
        <source>Bind to this folder</source>
        <translation>绑定到此文件夹</translation>
    </message>
    <message>
        <source>Import without a folder</source>
        <translation>不绑定文件夹直接导入</translation>
    </message>
    <message>
        <source>“{title}” was exported from {folder}. The session&apos;s tools will read and change files in the folder you bind it to, and a bound session stays there for good. Bind it only to a folder you mean it to work in, or import it without a folder.</source>
        <translation>“{title}”导出自 {folder}。会话的工具将读取并修改你所绑定文件夹中的文件，且会话一经绑定便永久留在该文件夹。请只绑定到你确实希望它在其中工作的文件夹，或者不绑定文件夹直接导入。</translation>
    </message>
    <message>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
</context>
<context>
    <name>SessionTreeView</name>
    <message>
        <source>No sessions yet.
Ctrl+N starts one.</source>
        <translation>还没有会话。
按 Ctrl+N 新建一个。</translation>
    </message>
    <message>
        <source>New session here</source>
        <translation>在此新建会话</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <source>Pin to top</source>
        <translation>置顶</translation>
    </message>
    <message>
        <source>Move to project</source>
        <translation>移动到项目</translation>
    </message>
</context>
<context>
    <name>SpeakerDirectory</name>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
</context>
<context>
    <name>StartWindow</name>
    <message>
        <source>Opening your sessions…</source>
        <translation>正在打开您的会话…</translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation>正在打开…</translation>
    </message>
    <message>
        <source>Foya cannot open its data folder.</source>
        <translation>Foya 无法打开其数据文件夹。</translation>
    </message>
    <message>
        <source>Quitting…</source>
        <translation>正在退出…</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <source>Default effort</source>
        <translation>默认强度</translation>
    </message>
    <message>
        <source>Minimal effort</source>
        <translation>最低强度</translation>
    </message>
    <message>
        <source>Low effort</source>
        <translation>低强度</translation>
    </message>
    <message>
        <source>Medium effort</source>
        <translation>中等强度</translation>
    </message>
    <message>
        <source>High effort</source>
        <translation>高强度</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>Ask before acting</source>
        <translation>操作前询问</translation>
    </message>
    <message>
        <source>Auto-edit files</source>
        <translation>自动编辑文件</translation>
    </message>
    <message>
        <source>Full auto</source>
        <translation>完全自动</translation>
    </message>
    <message>
        <source>Mode: Execute</source>
        <translation>模式：执行</translation>
    </message>
    <message>
        <source>Mode: Plan</source>
        <translation>模式：计划</translation>
    </message>
    <message>
        <source>Mode: Plan (awaiting confirmation)</source>
        <translation>模式：计划（待确认）</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>工作中…</translation>
    </message>
    <message>
        <source>Compacting history…</source>
        <translation>正在压缩历史…</translation>
    </message>
    <message>
        <source>Reasoning effort for the next model request</source>
        <translation>下一次模型请求的推理强度</translation>
    </message>
    <message>
        <source>Execute: tools as the approval mode allows. Plan: read and discuss only, then confirm the plan. Click to switch.</source>
        <translation>执行：按审批模式允许的范围使用工具。计划：仅阅读和讨论，然后确认计划。点击切换。</translation>
    </message>
    <message>
        <source>Confirm and execute</source>
        <translation>确认并执行</translation>
    </message>
    <message>
        <source>Keep planning</source>
        <translation>继续计划</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>调试</translation>
    </message>
    <message>
        <source>Debug: show each model request and tool call of a turn as sent</source>
        <translation>调试：按发送原样显示一轮中的每个模型请求和工具调用</translation>
    </message>
    <message>
        <source>Usage: tokens and cost of this session and of all time</source>
        <translation>用量：本会话及累计的 token 与费用</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <source>Copy error</source>
        <translation>复制错误</translation>
    </message>
    <message>
        <source>Copy the whole error to the clipboard</source>
        <translation>将完整错误复制到剪贴板</translation>
    </message>
    <message>
        <source>What tools may do without asking you</source>
        <translation>工具无需询问你即可执行的操作</translation>
    </message>
    <message>
        <source>Model service for this session</source>
        <translation>此会话使用的模型服务</translation>
    </message>
    <message>
        <source>Choose a service</source>
        <translation>选择服务</translation>
    </message>
    <message>
        <source>Model name (type any name the service offers)</source>
        <translation>模型名称（可输入服务提供的任意名称）</translation>
    </message>
    <message>
        <source>The plan is ready.</source>
        <translation>计划已就绪。</translation>
    </message>
    <message>
        <source>Waiting for you</source>
        <translation>等待你处理</translation>
    </message>
    <message>
        <source>Copied ✓</source>
        <translation>已复制 ✓</translation>
    </message>
    <message>
        <source>(no connection)</source>
        <translation>（无连接）</translation>
    </message>
</context>
<context>
    <name>StorageFaultDialog</name>
    <message>
        <source>Foya cannot open its data</source>
        <translation>Foya 无法打开其数据</translation>
    </message>
    <message>
        <source>Foya cannot open its data folder ({folder}).</source>
        <translation>Foya 无法打开其数据文件夹（{folder}）。</translation>
    </message>
    <message>
        <source>Restore the newest backup</source>
        <translation>恢复最新备份</translation>
    </message>
    <message>
        <source>Puts {backup} in place; the damaged file is kept beside it for a repair.</source>
        <translation>用 {backup} 替换数据库；损坏的文件保留在旁边，以便修复。</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Open the data folder</source>
        <translation>打开数据文件夹</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>SubAgentBanner</name>
    <message>
        <source>Open parent session</source>
        <translation>打开父会话</translation>
    </message>
    <message>
        <source>Go to the session that started this sub-agent</source>
        <translation>前往启动此子智能体的会话</translation>
    </message>
    <message>
        <source>its parent session</source>
        <translation>其父会话</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sub-agent session — read-only.&lt;/b&gt; {agent} is working on this task for &lt;b&gt;{parent}&lt;/b&gt;.</source>
        <translation>&lt;b&gt;子智能体会话 — 只读。&lt;/b&gt;{agent} 正在为 &lt;b&gt;{parent}&lt;/b&gt; 处理此任务。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sub-agent session — read-only.&lt;/b&gt; {agent} worked on this task for &lt;b&gt;{parent}&lt;/b&gt;.</source>
        <translation>&lt;b&gt;子智能体会话 — 只读。&lt;/b&gt;{agent} 曾为 &lt;b&gt;{parent}&lt;/b&gt; 处理此任务。</translation>
    </message>
    <message>
        <source>You can read its history here; to follow up, write in the parent session (or branch from a reply).</source>
        <translation>你可以在这里阅读它的历史；如需跟进，请在父会话中留言（或从某条回复分支）。</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message numerus="yes">
        <source>%n sub-agent(s) running: {links}</source>
        <translation>
            <numerusform>%n 个子智能体正在运行：{links}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Summaries</name>
    <message>
        <source>no output</source>
        <translation>无输出</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message numerus="yes">
        <source>%n lines · {summary}</source>
        <translation>
            <numerusform>%n 行 · {summary}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n image(s)</source>
        <translation>
            <numerusform>%n 张图片</numerusform>
        </translation>
    </message>
    <message>
        <source>Interrupted — this reply was cut off</source>
        <translation>已中断 — 此回复被截断</translation>
    </message>
    <message>
        <source>Error — </source>
        <translation>错误 — </translation>
    </message>
    <message>
        <source>this reply failed</source>
        <translation>此回复失败</translation>
    </message>
    <message>
        <source>stopped by you</source>
        <translation>已被你停止</translation>
    </message>
    <message>
        <source>at the length limit</source>
        <translation>达到长度上限</translation>
    </message>
    <message>
        <source>MMM d HH:mm</source>
        <comment>a day and time (QDateTime format)</comment>
        <translation>M月d日 HH:mm</translation>
    </message>
</context>
<context>
    <name>TaskListModel</name>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>● running</source>
        <translation>● 运行中</translation>
    </message>
    <message>
        <source>✓ done</source>
        <translation>✓ 完成</translation>
    </message>
    <message>
        <source>✗ failed</source>
        <translation>✗ 失败</translation>
    </message>
    <message>
        <source>■ cancelled</source>
        <translation>■ 已取消</translation>
    </message>
    <message>
        <source>? lost (app restarted)</source>
        <translation>? 已丢失（应用已重启）</translation>
    </message>
    <message>
        <source> (exit {code})</source>
        <translation>（退出码 {code}）</translation>
    </message>
</context>
<context>
    <name>TaskRunner</name>
    <message>
        <source>{what} failed: {error}</source>
        <translation>{what}失败：{error}</translation>
    </message>
</context>
<context>
    <name>TasksPanel</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Cancel task</source>
        <translation>取消任务</translation>
    </message>
    <message>
        <source>Select a task to see the tail of its output.</source>
        <translation>选择一个任务以查看其输出的末尾部分。</translation>
    </message>
    <message>
        <source>Loading background tasks</source>
        <translation>加载后台任务</translation>
    </message>
    <message>
        <source>Reading the task&apos;s output</source>
        <translation>读取任务输出</translation>
    </message>
    <message>
        <source>Cancelling the task</source>
        <translation>取消任务</translation>
    </message>
    <message>
        <source>No task selected</source>
        <translation>未选择任务</translation>
    </message>
    <message numerus="yes">
        <source>%n running</source>
        <translation>
            <numerusform>%n 个运行中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n finished</source>
        <translation>
            <numerusform>%n 个已结束</numerusform>
        </translation>
    </message>
    <message>
        <source>Background tasks · </source>
        <translation>后台任务 · </translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>TextDialog</name>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
</context>
<context>
    <name>TextSelection</name>
    <message>
        <source>Select text</source>
        <translation>选择文字</translation>
    </message>
</context>
<context>
    <name>Thumbnails</name>
    <message>
        <source>image missing</source>
        <translation>图片缺失</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <source>No messages yet.</source>
        <translation>还没有消息。</translation>
    </message>
    <message>
        <source>↓ Latest</source>
        <translation>↓ 最新</translation>
    </message>
    <message>
        <source>Jump to the newest message</source>
        <translation>跳到最新消息</translation>
    </message>
    <message>
        <source>Copy text</source>
        <translation>复制文本</translation>
    </message>
</context>
<context>
    <name>ToolRows</name>
    <message>
        <source>  ✗ denied</source>
        <translation>  ✗ 已拒绝</translation>
    </message>
    <message>
        <source>  · not run (the turn stopped)</source>
        <translation>  · 未运行（本轮已停止）</translation>
    </message>
    <message>
        <source>  ⚠ interrupted</source>
        <translation>  ⚠ 已中断</translation>
    </message>
    <message>
        <source>  → done</source>
        <translation>  → 完成</translation>
    </message>
    <message>
        <source>  ✗ failed</source>
        <translation>  ✗ 失败</translation>
    </message>
    <message>
        <source>  · waiting for your approval</source>
        <translation>  · 等待你的批准</translation>
    </message>
    <message>
        <source>  · queued</source>
        <translation>  · 排队中</translation>
    </message>
    <message>
        <source>  · running…</source>
        <translation>  · 运行中…</translation>
    </message>
    <message numerus="yes">
        <source>… (%n more character(s))</source>
        <translation>
            <numerusform>…（还有 %n 个字符）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ToolWords</name>
    <message>
        <source>(no output)</source>
        <translation>（无输出）</translation>
    </message>
    <message>
        <source>exit code {code}</source>
        <translation>退出码 {code}</translation>
    </message>
    <message>
        <source>timed out after {seconds} s; the command and its children were killed</source>
        <translation>{seconds} 秒后超时；命令及其子进程已被终止</translation>
    </message>
    <message>
        <source>could not start bash: {error}</source>
        <translation>无法启动 bash：{error}</translation>
    </message>
    <message>
        <source>{count} bytes truncated</source>
        <translation>已截断 {count} 字节</translation>
    </message>
    <message>
        <source>{count} characters truncated</source>
        <translation>已截断 {count} 个字符</translation>
    </message>
    <message>
        <source>diff truncated</source>
        <translation>差异已截断</translation>
    </message>
    <message>
        <source>truncated</source>
        <translation>已截断</translation>
    </message>
    <message>
        <source>more lines follow from line {offset}</source>
        <translation>从第 {offset} 行起还有更多</translation>
    </message>
    <message>
        <source>limit of {limit} characters reached; more from line {offset}</source>
        <translation>已达 {limit} 个字符上限；从第 {offset} 行起还有更多</translation>
    </message>
    <message>
        <source>(empty file)</source>
        <translation>（空文件）</translation>
    </message>
    <message>
        <source>the file has fewer than {first} lines</source>
        <translation>文件不足 {first} 行</translation>
    </message>
    <message>
        <source>{path}: (empty folder)</source>
        <translation>{path}：（空文件夹）</translation>
    </message>
    <message>
        <source>{path}/ ({count} shown)</source>
        <translation>{path}/（显示 {count} 项）</translation>
    </message>
    <message>
        <source>{count} more entries not shown</source>
        <translation>另有 {count} 项未显示</translation>
    </message>
    <message>
        <source>{path} is a binary file; read_file shows text only.</source>
        <translation>{path} 是二进制文件；read_file 只显示文本。</translation>
    </message>
    <message>
        <source>{path} is an image ({mime}); use view_image to look at it.</source>
        <translation>{path} 是图片（{mime}）；请用 view_image 查看。</translation>
    </message>
    <message>
        <source>No matches.</source>
        <translation>没有匹配。</translation>
    </message>
    <message>
        <source>No files match.</source>
        <translation>没有匹配的文件。</translation>
    </message>
    <message>
        <source>No matches: {what} is not a folder</source>
        <translation>没有匹配：{what} 不是文件夹</translation>
    </message>
    <message>
        <source>{path} is a binary file; grep searches text only.</source>
        <translation>{path} 是二进制文件；grep 只搜索文本。</translation>
    </message>
    <message>
        <source>{count} more not shown</source>
        <translation>另有 {count} 项未显示</translation>
    </message>
    <message>
        <source>search stopped after {count} entries</source>
        <translation>搜索在 {count} 项后停止</translation>
    </message>
    <message>
        <source>stopped at {count} matches</source>
        <translation>在 {count} 处匹配后停止</translation>
    </message>
    <message>
        <source>{count} secret-looking file(s) not searched</source>
        <translation>{count} 个疑似机密的文件未搜索</translation>
    </message>
    <message>
        <source>Created {path} ({size} bytes)</source>
        <translation>已创建 {path}（{size} 字节）</translation>
    </message>
    <message>
        <source>Wrote {path} ({size} bytes, was {before})</source>
        <translation>已写入 {path}（{size} 字节，原为 {before}）</translation>
    </message>
    <message>
        <source>Edited {path}: replaced {count} occurrence(s)</source>
        <translation>已编辑 {path}：替换了 {count} 处</translation>
    </message>
    <message>
        <source>Binary file {path} changes ({before} → {size} bytes)</source>
        <translation>二进制文件 {path} 有改动（{before} → {size} 字节）</translation>
    </message>
    <message>
        <source>Image {path} ({mime}, {size} bytes)</source>
        <translation>图片 {path}（{mime}，{size} 字节）</translation>
    </message>
    <message>
        <source>old_string was not found in the file</source>
        <translation>文件中找不到 old_string</translation>
    </message>
    <message>
        <source>old_string occurs {count} times; it must be unique</source>
        <translation>old_string 出现了 {count} 次；必须唯一</translation>
    </message>
    <message>
        <source>old_string and new_string are the same; nothing would change</source>
        <translation>old_string 与 new_string 相同；不会有任何改动</translation>
    </message>
    <message>
        <source>old_string must not be empty</source>
        <translation>old_string 不能为空</translation>
    </message>
    <message>
        <source>{path} does not exist</source>
        <translation>{path} 不存在</translation>
    </message>
    <message>
        <source>{path} is a folder, not a file</source>
        <translation>{path} 是文件夹，不是文件</translation>
    </message>
    <message>
        <source>{path} is not a folder</source>
        <translation>{path} 不是文件夹</translation>
    </message>
    <message>
        <source>folder {path} does not exist</source>
        <translation>文件夹 {path} 不存在</translation>
    </message>
    <message>
        <source>missing required argument {name}</source>
        <translation>缺少必需参数 {name}</translation>
    </message>
    <message>
        <source>invalid regular expression: {error}</source>
        <translation>正则表达式无效：{error}</translation>
    </message>
    <message>
        <source>Refused by the command policy: {reason}</source>
        <translation>命令策略拒绝：{reason}</translation>
    </message>
    <message>
        <source>{path} resolves to {real}, outside the project folder {root}</source>
        <translation>{path} 指向 {real}，在项目文件夹 {root} 之外</translation>
    </message>
    <message>
        <source>{path} is outside the project folder {root}</source>
        <translation>{path} 在项目文件夹 {root} 之外</translation>
    </message>
    <message>
        <source>argument {name} must be a string, not {type}</source>
        <translation>参数 {name} 必须是字符串，而不是 {type}</translation>
    </message>
    <message>
        <source>argument {name} must not be empty</source>
        <translation>参数 {name} 不能为空</translation>
    </message>
    <message>
        <source>argument {name} must be an integer</source>
        <translation>参数 {name} 必须是整数</translation>
    </message>
    <message>
        <source>argument {name} must be between {low} and {high}</source>
        <translation>参数 {name} 必须介于 {low} 和 {high} 之间</translation>
    </message>
    <message>
        <source>argument {name} must be true or false</source>
        <translation>参数 {name} 必须是 true 或 false</translation>
    </message>
    <message>
        <source>{path} is protected (git internals or Foya&apos;s data) and cannot be read by file tools</source>
        <translation>{path} 受保护（git 内部文件或 Foya 的数据），文件工具不能读取</translation>
    </message>
    <message>
        <source>{path} is protected (git internals or Foya&apos;s data) and cannot be written by file tools</source>
        <translation>{path} 受保护（git 内部文件或 Foya 的数据），文件工具不能写入</translation>
    </message>
    <message>
        <source>path must be a string, not {type}</source>
        <translation>路径必须是字符串，而不是 {type}</translation>
    </message>
    <message>
        <source>path is empty</source>
        <translation>路径为空</translation>
    </message>
    <message>
        <source>path {path} contains a NUL byte</source>
        <translation>路径 {path} 含有 NUL 字节</translation>
    </message>
    <message>
        <source>path {path} contains control characters</source>
        <translation>路径 {path} 含有控制字符</translation>
    </message>
    <message>
        <source>path {path} starts with &apos;~&apos;; home folders are outside the project and &apos;~&apos; is not expanded</source>
        <translation>路径 {path} 以 “~” 开头；主文件夹在项目之外，且 “~” 不会被展开</translation>
    </message>
    <message>
        <source>path {path} uses shell variable syntax; variables are not expanded, give a literal path</source>
        <translation>路径 {path} 使用了 shell 变量语法；变量不会被展开，请给出字面路径</translation>
    </message>
    <message>
        <source>project folder {path} does not exist</source>
        <translation>项目文件夹 {path} 不存在</translation>
    </message>
    <message>
        <source>path {path} runs into a symbolic link loop</source>
        <translation>路径 {path} 陷入符号链接循环</translation>
    </message>
    <message>
        <source>path {path} is too long</source>
        <translation>路径 {path} 过长</translation>
    </message>
    <message>
        <source>{path} has {count} hard links; writing it could change a file outside the project</source>
        <translation>{path} 有 {count} 个硬链接；写入它可能改动项目之外的文件</translation>
    </message>
    <message>
        <source>{path} has {count} hard links; reading it could show a file outside the project</source>
        <translation>{path} 有 {count} 个硬链接；读取它可能泄露项目之外的文件</translation>
    </message>
    <message>
        <source>{path} is a system path (/proc, /dev, /sys), not a project file</source>
        <translation>{path} 是系统路径（/proc、/dev、/sys），不是项目文件</translation>
    </message>
    <message>
        <source>the project folder itself cannot be written as a file</source>
        <translation>不能把项目文件夹本身当作文件写入</translation>
    </message>
    <message>
        <source>cannot open {path}: {error}</source>
        <translation>无法打开 {path}：{error}</translation>
    </message>
    <message>
        <source>{path} is not a normalised path</source>
        <translation>{path} 不是规范化的路径</translation>
    </message>
    <message>
        <source>{path} is a symbolic link; Foya does not follow it here</source>
        <translation>{path} 是符号链接；Foya 在此不跟随它</translation>
    </message>
    <message>
        <source>{path} is (or just became) a symbolic link; Foya does not follow it here</source>
        <translation>{path} 是（或刚刚变成）符号链接；Foya 在此不跟随它</translation>
    </message>
    <message>
        <source>the project folder itself is not a file</source>
        <translation>项目文件夹本身不是文件</translation>
    </message>
    <message>
        <source>{path} is a folder</source>
        <translation>{path} 是文件夹</translation>
    </message>
    <message>
        <source>{path} is not a regular file</source>
        <translation>{path} 不是普通文件</translation>
    </message>
    <message>
        <source>glob {glob} must be relative to the project folder</source>
        <translation>glob {glob} 必须相对于项目文件夹</translation>
    </message>
    <message>
        <source>glob {glob} contains &apos;..&apos;; globs cannot leave the search folder</source>
        <translation>glob {glob} 含有 “..”；glob 不能离开搜索文件夹</translation>
    </message>
    <message>
        <source>pattern is longer than {count} characters</source>
        <translation>模式超过 {count} 个字符</translation>
    </message>
    <message>
        <source>{path} is not UTF-8 text; edit_file cannot change it</source>
        <translation>{path} 不是 UTF-8 文本；edit_file 无法修改它</translation>
    </message>
    <message>
        <source>ask_user needs a non-empty &apos;question&apos;.</source>
        <translation>ask_user 需要非空的 “question”。</translation>
    </message>
    <message>
        <source>&apos;choices&apos; must be a list of strings.</source>
        <translation>“choices” 必须是字符串列表。</translation>
    </message>
    <message>
        <source>&apos;task_id&apos; is required.</source>
        <translation>需要 “task_id”。</translation>
    </message>
    <message>
        <source>the call that started this sub-agent is not recorded as running</source>
        <translation>启动此子智能体的调用未记录为运行中</translation>
    </message>
    <message>
        <source>no persona named {name}; known: {known}</source>
        <translation>没有名为 {name} 的角色；已知：{known}</translation>
    </message>
    <message>
        <source>There is no persona or agent file named {name} here. You may start: {known}</source>
        <translation>这里没有名为 {name} 的角色或智能体文件。可以启动：{known}</translation>
    </message>
    <message>
        <source>{name} is not on this session&apos;s roster, so it cannot be started here. You may start: {known}</source>
        <translation>{name} 不在此会话的 VP 名单中，因此不能在这里启动。可以启动：{known}</translation>
    </message>
    <message>
        <source>{name} is an agent file of this repository ({path}) that you have not added to the VP library, so it cannot be started. You may start: {known}</source>
        <translation>{name} 是此仓库中的智能体文件（{path}），你尚未把它加入 VP 库，因此不能启动。可以启动：{known}</translation>
    </message>
    <message>
        <source>The agent file {name} asks for {tools}, which {caller} may not use here, so it was not started (a sub-agent never gets tools its caller lacks).</source>
        <translation>智能体文件 {name} 要求使用 {tools}，而 {caller} 在这里不能使用它们，因此没有启动（子智能体永远不会得到调用者没有的工具）。</translation>
    </message>
    <message>
        <source>{name} is no longer on this session&apos;s roster.</source>
        <translation>{name} 已不在此会话的 VP 名单中。</translation>
    </message>
    <message>
        <source>save needs the text to remember.</source>
        <translation>save 需要要记住的文字。</translation>
    </message>
    <message>
        <source>forget needs the id of the entry (see action list).</source>
        <translation>forget 需要条目的 id（见 list 操作）。</translation>
    </message>
    <message>
        <source>Unknown action {action}: use save, list or forget.</source>
        <translation>未知操作 {action}：请使用 save、list 或 forget。</translation>
    </message>
    <message>
        <source>Started background task {id}: {title}</source>
        <translation>已启动后台任务 {id}：{title}</translation>
    </message>
    <message>
        <source>Started sub-agent task {id} in child session {child}</source>
        <translation>已在子会话 {child} 中启动子智能体任务 {id}</translation>
    </message>
    <message>
        <source>Sub-agent task {id} (child session {child}) ended: {state}</source>
        <translation>子智能体任务 {id}（子会话 {child}）已结束：{state}</translation>
    </message>
    <message>
        <source>Could not start the sub-agent: {error}</source>
        <translation>无法启动子智能体：{error}</translation>
    </message>
    <message>
        <source>(no answer)</source>
        <translation>（没有回答）</translation>
    </message>
    <message>
        <source>The memory is empty.</source>
        <translation>记忆为空。</translation>
    </message>
    <message>
        <source>Saved {id} to memory ({scope})</source>
        <translation>已把 {id} 存入记忆（{scope}）</translation>
    </message>
    <message>
        <source>Forgot {id}.</source>
        <translation>已忘记 {id}。</translation>
    </message>
    <message>
        <source>You answered: {answer}</source>
        <translation>你的回答：{answer}</translation>
    </message>
    <message>
        <source>You rejected this call: {feedback}</source>
        <translation>你拒绝了此调用：{feedback}</translation>
    </message>
    <message>
        <source>Unknown tool: {name}.</source>
        <translation>未知工具：{name}。</translation>
    </message>
    <message>
        <source>Not allowed: {reason}.</source>
        <translation>不允许：{reason}。</translation>
    </message>
    <message>
        <source>The tool failed: {error}</source>
        <translation>工具失败：{error}</translation>
    </message>
    <message>
        <source>file system error: {error}</source>
        <translation>文件系统错误：{error}</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>yours</source>
        <translation>你的</translation>
    </message>
    <message>
        <source>the VP&apos;s</source>
        <translation>该 VP 的</translation>
    </message>
    <message>
        <source>the VP&apos;s in this session</source>
        <translation>该 VP 在本会话中的</translation>
    </message>
    <message>
        <source>this session&apos;s</source>
        <translation>本会话的</translation>
    </message>
</context>
<context>
    <name>TrayAgent</name>
    <message>
        <source>Showing a notification</source>
        <translation>显示通知</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message numerus="yes">
        <source>+%n more</source>
        <translation>
            <numerusform>另外 %n 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Updates in Foya: %n</source>
        <translation>
            <numerusform>Foya 有 %n 条更新</numerusform>
        </translation>
    </message>
    <message>
        <source>Reply finished</source>
        <translation>回复已完成</translation>
    </message>
    <message>
        <source>Reply failed</source>
        <translation>回复失败</translation>
    </message>
    <message>
        <source>Foya needs you</source>
        <translation>Foya 需要你处理</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message numerus="yes">
        <source>running: %n</source>
        <translation>
            <numerusform>运行中：%n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>waiting for you: %n</source>
        <translation>
            <numerusform>等待你处理：%n</numerusform>
        </translation>
    </message>
    <message>
        <source>Show Foya</source>
        <translation>显示 Foya</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Waiting for you</source>
        <translation>等待你处理</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
</context>
<context>
    <name>TreeModel</name>
    <message>
        <source>No folder (Recents)</source>
        <translation>无文件夹（最近）</translation>
    </message>
</context>
<context>
    <name>UsageDialog</name>
    <message>
        <source>day</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>connection / model</source>
        <translation>连接 / 模型</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>input (incl. cache)</source>
        <translation>输入（含缓存）</translation>
    </message>
    <message>
        <source>cache read</source>
        <translation>缓存读取</translation>
    </message>
    <message>
        <source>cache write</source>
        <translation>缓存写入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>未设价格</translation>
    </message>
    <message>
        <source>Token usage</source>
        <translation>Token 用量</translation>
    </message>
    <message>
        <source>&lt;b&gt;This session&lt;/b&gt;</source>
        <translation>&lt;b&gt;此会话&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;All time&lt;/b&gt; (deleted sessions included)</source>
        <translation>&lt;b&gt;全部历史&lt;/b&gt;（含已删除的会话）</translation>
    </message>
    <message>
        <source>Input counts every prompt token, cached ones included, for every service. Cost appears only for models with a price (USD per million tokens): pick a row and set its price.</source>
        <translation>对所有服务，输入都计入全部提示 token（含缓存）。只有设置了价格（美元 / 百万 token）的模型才显示费用：选中一行即可设置其价格。</translation>
    </message>
    <message>
        <source>Set price…</source>
        <translation>设置价格…</translation>
    </message>
    <message>
        <source>Setting a price</source>
        <translation>正在设置价格</translation>
    </message>
    <message>
        <source>Saving the price</source>
        <translation>正在保存价格</translation>
    </message>
    <message numerus="yes">
        <source>{cost} + %n line(s) without a price</source>
        <translation>
            <numerusform>{cost} + %n 行未设价格</numerusform>
        </translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
</context>
<context>
    <name>VPLibraryDialog</name>
    <message>
        <source>VPs</source>
        <translation>VP</translation>
    </message>
    <message>
        <source>The system prompt: who this VP is and how it works</source>
        <translation>系统提示词：这个 VP 是谁、如何工作</translation>
    </message>
    <message>
        <source>primary (the session&apos;s model)</source>
        <translation>主力（会话的模型）</translation>
    </message>
    <message>
        <source>fast (a quicker model)</source>
        <translation>快速（更快的模型）</translation>
    </message>
    <message>
        <source>empty: every tool the session allows; else e.g. read_file,grep</source>
        <translation>留空：会话允许的全部工具；否则如 read_file,grep</translation>
    </message>
    <message>
        <source>#rrggbb (empty: from the roster order)</source>
        <translation>#rrggbb（留空：按成员顺序分配）</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>From agent file…</source>
        <translation>从智能体文件…</translation>
    </message>
    <message>
        <source>Add a Claude Code / Foya agent definition (.claude/agents/*.md, .foya/agents/*.md) as a VP</source>
        <translation>把 Claude Code / Foya 的智能体定义（.claude/agents/*.md、.foya/agents/*.md）添加为 VP</translation>
    </message>
    <message>
        <source>Name (@handle)</source>
        <translation>名称（用于 @ 提及）</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>显示名称</translation>
    </message>
    <message>
        <source>Soul</source>
        <translation>灵魂</translation>
    </message>
    <message>
        <source>Model hint</source>
        <translation>模型提示</translation>
    </message>
    <message>
        <source>Allowed tools</source>
        <translation>允许的工具</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>{name}  (built in)</source>
        <translation>{name}  （内置）</translation>
    </message>
    <message>
        <source>Saved {name}. Address it as @{name}.</source>
        <translation>已保存 {name}。用 @{name} 称呼它。</translation>
    </message>
    <message>
        <source>Duplicated {name} as {copy}.</source>
        <translation>已将 {name} 复制为 {copy}。</translation>
    </message>
    <message>
        <source>Deleted {name}.</source>
        <translation>已删除 {name}。</translation>
    </message>
    <message>
        <source>Agent file</source>
        <translation>智能体文件</translation>
    </message>
    <message>
        <source>Agent definitions (*.md)</source>
        <translation>智能体定义 (*.md)</translation>
    </message>
    <message>
        <source>Added {name} from its agent file; put it on a roster in the session&apos;s settings.</source>
        <translation>已从智能体文件添加 {name}；可在会话设置中把它加入阵容。</translation>
    </message>
</context>
<context>
    <name>VPStatusBlock</name>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop this VP (the others go on)</source>
        <translation>停止此 VP（其他 VP 继续）</translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n 次失败</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln model request(s)</source>
        <translation>
            <numerusform>%Ln 次模型请求</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln tool execution(s)</source>
        <translation>
            <numerusform>%Ln 次工具执行</numerusform>
        </translation>
    </message>
    <message>
        <source>{tokens} · {requests} · {runs}</source>
        <translation>{tokens} · {requests} · {runs}</translation>
    </message>
    <message>
        <source>Run details</source>
        <translation>运行详情</translation>
    </message>
    <message>
        <source>Waiting for you</source>
        <translation>等待你处理</translation>
    </message>
    <message>
        <source>tokens: not reported yet</source>
        <translation>token 用量：尚未上报</translation>
    </message>
    <message>
        <source>tokens: not provided by the service</source>
        <translation>token 用量：服务未提供</translation>
    </message>
    <message>
        <source>input {input} tokens · output: not reported yet</source>
        <translation>输入 {input} token · 输出：尚未上报</translation>
    </message>
    <message>
        <source>input {input} tokens · output: not provided</source>
        <translation>输入 {input} token · 输出：未提供</translation>
    </message>
    <message>
        <source>input: not reported yet · output {output} tokens</source>
        <translation>输入：尚未上报 · 输出 {output} token</translation>
    </message>
    <message>
        <source>input: not provided · output {output} tokens</source>
        <translation>输入：未提供 · 输出 {output} token</translation>
    </message>
    <message>
        <source>input {input} · output {output} tokens</source>
        <translation>输入 {input} · 输出 {output} token</translation>
    </message>
    <message>
        <source>No tool calls yet.</source>
        <translation>尚无工具调用。</translation>
    </message>
    <message numerus="yes">
        <source>%n more tool kind(s), counted in the totals above</source>
        <translation>
            <numerusform>另有 %n 种工具，已计入上方合计</numerusform>
        </translation>
    </message>
    <message>
        <source>tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>executions</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>failures</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>被拦截</translation>
    </message>
    <message>
        <source>Failures include blocked calls (refused before they ran).</source>
        <translation>失败次数包含被拦截的调用（运行前即被拒绝）。</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <source>Input served from the prompt cache (reuse): {cache} · repeated calls: {repeated} · duplicate results: {duplicates} · latest evidence: {evidence}</source>
        <translation>来自提示缓存的输入（复用）：{cache} · 重复调用：{repeated} · 重复结果：{duplicates} · 最新证据：{evidence}</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>Welcome to Foya</source>
        <translation>欢迎使用 Foya</translation>
    </message>
    <message>
        <source>A workbench for AI agents: each session works in a project folder, with one or more agent personas (VPs) that read, edit and run commands under the approval rules you set.</source>
        <translation>AI 智能体工作台：每个会话在一个项目文件夹中工作，由一个或多个智能体角色（VP）按你设定的审批规则读取、编辑文件并运行命令。</translation>
    </message>
    <message>
        <source>Start a session</source>
        <translation>开始一个会话</translation>
    </message>
    <message>
        <source>Open a folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Pick a project folder and start a session there at once</source>
        <translation>选择项目文件夹，并立即在那里开始会话</translation>
    </message>
    <message>
        <source>New session…</source>
        <translation>新建会话…</translation>
    </message>
    <message>
        <source>Choose the folder, the VPs, the model and the approval mode</source>
        <translation>选择文件夹、VP、模型和审批模式</translation>
    </message>
    <message>
        <source>Open the project folder the agents work in; New session… also picks the VPs and the model.</source>
        <translation>打开智能体工作的项目文件夹；“新建会话…”还可以选择 VP 和模型。</translation>
    </message>
    <message>
        <source>Say what you want done</source>
        <translation>说出你想完成的事</translation>
    </message>
    <message>
        <source>Write the task in the box at the bottom. The VPs read, edit and run commands; whatever changes your files or runs a command waits for your approval first.</source>
        <translation>在底部的输入框中写下任务。VP 会读取、编辑文件并运行命令；任何修改文件或运行命令的操作都会先等待你的批准。</translation>
    </message>
    <message>
        <source>Ctrl+N new session  ·  Ctrl+K jump to a session or command  ·  F1 all shortcuts</source>
        <translation>Ctrl+N 新建会话  ·  Ctrl+K 跳转到会话或命令  ·  F1 全部快捷键</translation>
    </message>
    <message>
        <source>Add a model service</source>
        <translation>添加模型服务</translation>
    </message>
    <message>
        <source>A model service is ready.</source>
        <translation>模型服务已就绪。</translation>
    </message>
    <message>
        <source>An OpenAI-compatible or Anthropic endpoint, or a local server (Ollama, LM Studio).</source>
        <translation>OpenAI 兼容或 Anthropic 接口，或本地服务器（Ollama、LM Studio）。</translation>
    </message>
    <message>
        <source>Set up a model service…</source>
        <translation>配置模型服务…</translation>
    </message>
    <message>
        <source>⚠ This system has no secure keyring, so API keys cannot be saved; Connections… lets you name an environment variable instead.</source>
        <translation>⚠ 此系统没有安全的密钥环，无法保存 API 密钥；可在“连接…”中改为指定一个环境变量。</translation>
    </message>
    <message>
        <source>Connections…</source>
        <translation>连接…</translation>
    </message>
</context>
<context>
    <name>WorktreeActions</name>
    <message>
        <source>Merge back…</source>
        <translation>合并回去…</translation>
    </message>
    <message>
        <source>Fork into a new worktree…</source>
        <translation>复刻到新的工作树…</translation>
    </message>
    <message>
        <source>Branch from latest reply into a new worktree…</source>
        <translation>从最新回复分支到新的工作树…</translation>
    </message>
    <message>
        <source>Reading worktrees</source>
        <translation>正在读取工作树</translation>
    </message>
</context>
<context>
    <name>WorktreeFlows</name>
    <message>
        <source>detached</source>
        <translation>游离</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;{branch}&lt;/b&gt; into &lt;b&gt;{base}&lt;/b&gt; in {repo}: %n commit(s).&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;将 &lt;b&gt;{branch}&lt;/b&gt; 合入 {repo} 中的 &lt;b&gt;{base}&lt;/b&gt;：%n 个提交。&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>binary</source>
        <translation>二进制</translation>
    </message>
    <message>
        <source>(The diff is cut here.)</source>
        <translation>（差异在此处截断。）</translation>
    </message>
    <message>
        <source>Merge back</source>
        <translation>合并回去</translation>
    </message>
    <message>
        <source>Merge “{branch}” back into “{base}”?</source>
        <translation>将“{branch}”合并回“{base}”？</translation>
    </message>
    <message>
        <source>Merge the branch into the base (git merge)</source>
        <translation>把分支合并到基线分支（git merge）</translation>
    </message>
    <message>
        <source>Rebase the branch onto the base, then fast-forward (git rebase)</source>
        <translation>把分支变基到基线分支上，再快进（git rebase）</translation>
    </message>
    <message>
        <source>New branch named after the new session</source>
        <translation>以新会话命名的新分支</translation>
    </message>
    <message>
        <source>Foya adds a git worktree beside the repository and binds the new session to it for good; this session stays where it is.</source>
        <translation>Foya 会在仓库旁添加一个 git 工作树，并把新会话永久绑定到它；当前会话保持不变。</translation>
    </message>
    <message>
        <source>Fork into a new worktree</source>
        <translation>复刻到新的工作树</translation>
    </message>
    <message>
        <source>Branch into a new worktree</source>
        <translation>分支到新的工作树</translation>
    </message>
    <message>
        <source>Nothing to branch from yet</source>
        <translation>还没有可以分支的位置</translation>
    </message>
    <message>
        <source>A branch starts from a complete reply, and this session has none yet.</source>
        <translation>分支要从一条完整的回复开始，而这个会话还没有。</translation>
    </message>
    <message>
        <source>No worktree was made</source>
        <translation>没有创建工作树</translation>
    </message>
    <message>
        <source>Cannot merge back</source>
        <translation>无法合并回去</translation>
    </message>
    <message>
        <source>Merged back</source>
        <translation>已合并回去</translation>
    </message>
    <message>
        <source>Conflicts left for you</source>
        <translation>冲突留给你处理</translation>
    </message>
    <message>
        <source>Delete session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <source>Delete “{title}”?</source>
        <translation>删除“{title}”？</translation>
    </message>
    <message>
        <source>&lt;p&gt;The session works in the git worktree {path} on the branch &lt;b&gt;{branch}&lt;/b&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;这个会话在 git 工作树 {path} 中、分支 &lt;b&gt;{branch}&lt;/b&gt; 上工作。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Also remove the worktree folder and the branch “{branch}”</source>
        <translation>同时移除工作树文件夹和分支“{branch}”</translation>
    </message>
    <message>
        <source>The worktree was not removed</source>
        <translation>工作树没有被移除</translation>
    </message>
    <message>
        <source>Remove work that is not in “{base}”?</source>
        <translation>移除尚未进入“{base}”的工作？</translation>
    </message>
    <message>
        <source>&lt;p&gt;The worktree holds work that is not in &lt;b&gt;{base}&lt;/b&gt;: {commits} commit(s) on &lt;b&gt;{branch}&lt;/b&gt; and {files} uncommitted file(s). Removing the worktree and the branch loses that work for good.&lt;/p&gt;</source>
        <translation>&lt;p&gt;工作树中有尚未进入 &lt;b&gt;{base}&lt;/b&gt; 的工作：&lt;b&gt;{branch}&lt;/b&gt; 上的 {commits} 个提交和 {files} 个未提交的文件。移除工作树和分支会永久丢失这些工作。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Remove it anyway</source>
        <translation>仍然移除</translation>
    </message>
</context>
<context>
    <name>card</name>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
</context>
</TS>
