<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>App</name>
    <message>
        <source>Foya cannot open its data folder ({folder}).</source>
        <translation>Foya 无法打开其数据文件夹（{folder}）。</translation>
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
        <source>e.g. OPENAI_API_KEY (read from the environment instead)</source>
        <translation>例如 OPENAI_API_KEY（改为从环境变量读取）</translation>
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
        <source>Unavailable: no secure keyring on this system</source>
        <translation>不可用：此系统没有安全的密钥环</translation>
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
        <source>Removing the connection</source>
        <translation>移除连接</translation>
    </message>
    <message>
        <source>Removed “{name}”.</source>
        <translation>已移除“{name}”。</translation>
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
        <source>Another Foya process (pid {pid}) is working in this session; wait until it finishes.</source>
        <translation>另一个 Foya 进程（pid {pid}）正在此会话中工作，请等待它完成。</translation>
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
        <source>The model service sent something Foya cannot read.</source>
        <translation>模型服务返回了 Foya 无法解析的内容。</translation>
    </message>
    <message>
        <source>The model service reported an error while replying.</source>
        <translation>模型服务在回复过程中报告了错误。</translation>
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
        <source>The path is outside the session&apos;s project folder.</source>
        <translation>该路径位于会话的项目文件夹之外。</translation>
    </message>
    <message>
        <source>{summary} ({detail})</source>
        <translation>{summary}（{detail}）</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>Follow the system ({name})</source>
        <translation>跟随系统（{name}）</translation>
    </message>
    <message>
        <source>The new language is used the next time Foya starts.</source>
        <translation>新语言将在下次启动 Foya 时生效。</translation>
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
        <source>Close window</source>
        <translation>关闭窗口</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
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
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>VPs</source>
        <translation>VP</translation>
    </message>
    <message>
        <source>Opening the session</source>
        <translation>打开会话</translation>
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
        <source>A bound session keeps its folder; fork it to work elsewhere.</source>
        <translation>已绑定的会话会保留其文件夹；如需在别处工作，请派生（fork）它。</translation>
    </message>
    <message>
        <source>Not bound — type a folder to bind this session once</source>
        <translation>未绑定 — 输入文件夹即可绑定此会话（仅一次）</translation>
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
        <source>Saving session settings</source>
        <translation>保存会话设置</translation>
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
        <source>Show each model request and tool call of a turn as sent</source>
        <translation>按实际发送内容显示一轮中的每次模型请求和工具调用</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <source>Tokens and cost of this session and of all time</source>
        <translation>此会话及全部历史的 token 数和费用</translation>
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
        <source>(no connection)</source>
        <translation>（无连接）</translation>
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
        <source>Cost appears only for models with a price: foya usage price CONNECTION MODEL --input USD --output USD (per million tokens).</source>
        <translation>只有设置了价格的模型才显示费用：foya usage price CONNECTION MODEL --input USD --output USD（每百万 token）。</translation>
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
        <source>Name (@handle)</source>
        <translation>名称（@句柄）</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>显示名称</translation>
    </message>
    <message>
        <source>Soul</source>
        <translation>灵魂（Soul）</translation>
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
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>Welcome to Foya</source>
        <translation>欢迎使用 Foya</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Set up a model service…</source>
        <translation>配置模型服务…</translation>
    </message>
    <message>
        <source>Bind a session to a project folder and work with one or more agent personas. They read and edit files and run commands under the approval rules you set.</source>
        <translation>将会话绑定到项目文件夹，与一个或多个智能体角色协作。它们会在你设定的审批规则下读取和编辑文件、运行命令。</translation>
    </message>
    <message>
        <source>First, add a model service (OpenAI-compatible or Anthropic).</source>
        <translation>首先，添加一个模型服务（兼容 OpenAI 或 Anthropic）。</translation>
    </message>
    <message>
        <source>This system has no secure keyring, so API keys cannot be saved; Connections… lets you name an environment variable instead.</source>
        <translation>此系统没有安全的密钥环，无法保存 API 密钥；可在“连接…”中改为指定一个环境变量。</translation>
    </message>
    <message>
        <source>Connections…</source>
        <translation>连接…</translation>
    </message>
</context>
</TS>
